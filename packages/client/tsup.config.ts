import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'node20',
  platform: 'node',
  // Keep `node:crypto` as written: Deno knows Node's built-ins only by their `node:` names.
  removeNodeProtocol: false,
  clean: true,
  // The package ships dist only; a map would point at sources that are not in the tarball.
  sourcemap: false,
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
});

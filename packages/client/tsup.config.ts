import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as {
  version: string;
};

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  // Node 20, current browsers, Deno, Bun and edge runtimes all read ES2022.
  target: 'es2022',
  // The source uses web APIs only, so the build assumes no runtime.
  platform: 'neutral',
  clean: true,
  // The package ships dist only; a map would point at sources that are not in the tarball.
  sourcemap: false,
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
});

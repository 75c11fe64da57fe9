// Writes src/generated/openapi.ts, the types of the API document, as openapi-typescript's CLI
// writes them (the root .prettierignore leaves the file as generated).
// Build, typecheck and lint each run it, possibly at once: files are replaced in one rename,
// and nothing is done while the document, this script and the generator are what the last run
// read.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const documentUrl = new URL('../../contract/openapi.json', import.meta.url);
const outputUrl = new URL('../src/generated/openapi.ts', import.meta.url);
const stampUrl = new URL('../src/generated/openapi.sha256', import.meta.url);

async function replace(url, text) {
  const temporary = `${fileURLToPath(url)}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, url);
}

const document = await readFile(documentUrl, 'utf8');
const script = await readFile(new URL(import.meta.url), 'utf8');
const generator = await readFile(
  new URL('../node_modules/openapi-typescript/package.json', import.meta.url),
  'utf8',
);
const stamp = createHash('sha256')
  .update(document)
  .update(script)
  .update(generator)
  .digest('hex');
const output = await readFile(outputUrl, 'utf8').catch(() => '');
const stamped = await readFile(stampUrl, 'utf8').catch(() => '');

if (!output || stamped !== stamp) {
  const {
    default: openapiTS,
    astToString,
    COMMENT_HEADER,
  } = await import('openapi-typescript');
  const source =
    COMMENT_HEADER + astToString(await openapiTS(JSON.parse(document)));
  await mkdir(new URL('.', outputUrl), { recursive: true });
  await replace(outputUrl, source);
  await replace(stampUrl, stamp);
}

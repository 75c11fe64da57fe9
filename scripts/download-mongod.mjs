// Part of scripts/install-mongod.sh: mongodb-memory-server's mongod of the version the root
// package.json pins (config.mongodbMemoryServer), downloaded once into .tools/mongodb-binaries.
// Prints its path. Exits 3, having downloaded nothing, when MongoDB's downloads do not answer
// within 5 s: no network, or none to them.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
// The library is testkit's dependency; it reads its settings from the root package.json.
const require = createRequire(
  join(root, 'packages', 'testkit', 'package.json'),
);
const { DryMongoBinary, MongoBinary } = require('mongodb-memory-server-core');
const {
  MongoBinaryDownloadUrl,
} = require('mongodb-memory-server-core/lib/util/MongoBinaryDownloadUrl');
const { config } = require(join(root, 'package.json'));
const { version, downloadDir } = config.mongodbMemoryServer;
const options = { version, downloadDir: join(root, downloadDir) };

const found = await DryMongoBinary.locateBinary(options);
if (found) {
  console.log(found);
  process.exit(0);
}
const generated = await DryMongoBinary.generateOptions(options);
const url = await new MongoBinaryDownloadUrl(generated).getDownloadUrl();
const reachable = await fetch(url, {
  method: 'HEAD',
  signal: AbortSignal.timeout(5_000),
}).then(
  (answer) => answer.ok,
  () => false,
);
if (!reachable) {
  console.error(`download-mongod: ${url} did not answer within 5 s`);
  process.exit(3);
}
console.error(
  `download-mongod: downloading mongod ${version} (once) from ${url}`,
);
console.log(await MongoBinary.getPath(options));

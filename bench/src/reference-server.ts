import { hash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import Koa from 'koa';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';

// The references the services are measured against, each the least its part of a pet read can
// cost, run as a process of its own so that it shares no thread with the load generator:
//   node reference-server.js R1|RK <mongodb uri>: `node:http` or Koa, and the driver's `findOne`
//     on the pets service's database;
//   node reference-server.js R2|RG <upstream> <API key> <account id>: `node:http` or Koa, the key
//     looked up by its SHA-256 in memory, and an undici `Pool` in front of the upstream (R1, RK).
// It prints `listening <port>` once it accepts connections and stops on SIGTERM.
const [kind = '', ...args] = process.argv.slice(2);

type Answer = { status: number; body: string | Buffer };
type Answerer = (path: string, authorization: string) => Promise<Answer>;

async function reader(
  uri: string,
): Promise<{ answer: Answerer; close: () => Promise<void> }> {
  const client = await new MongoClient(uri).connect();
  const pets = client.db('petstore_pets').collection<{ _id: number }>('pets');
  const answer: Answerer = async (path) => {
    const found = await pets.findOne({ _id: Number(path.split('/').at(-1)) });
    if (!found) return { status: 404, body: '' };
    const { _id: id, ...pet } = found;
    return { status: 200, body: JSON.stringify({ id, ...pet }) };
  };
  return { answer, close: () => client.close() };
}

function proxy(upstream: string, apiKey: string, accountId: string) {
  const sha256 = (token: string) => hash('sha256', token, 'hex');
  const keys = new Map([[sha256(apiKey), accountId]]);
  const pool = new Pool(upstream, { connections: 128 });
  const answer: Answerer = async (path, authorization) => {
    const account = keys.get(sha256(authorization.replace(/^Bearer /, '')));
    if (account === undefined) return { status: 401, body: '' };
    const headers = { 'x-account-id': account };
    const { statusCode, body } = await pool.request({
      path,
      method: 'GET',
      headers,
    });
    return { status: statusCode, body: Buffer.from(await body.arrayBuffer()) };
  };
  return { answer, close: () => pool.close() };
}

const [first = '', apiKey = '', accountId = ''] = args;
const reads = kind === 'R1' || kind === 'RK';
const { answer, close } = reads
  ? await reader(first)
  : proxy(first, apiKey, accountId);

function httpHandler(req: IncomingMessage, res: ServerResponse): void {
  answer(req.url ?? '/', req.headers.authorization ?? '').then(
    ({ status, body }) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
      });
      res.end(body);
    },
    () => res.writeHead(502).end(),
  );
}

function koaHandler() {
  const app = new Koa();
  app.use(async (ctx) => {
    const { status, body } = await answer(ctx.url, ctx.get('Authorization'));
    ctx.status = status;
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return app.callback();
}

const server = createServer(
  kind === 'RK' || kind === 'RG' ? koaHandler() : httpHandler,
);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port =
    typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`listening ${port}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void close().finally(() => process.exit(0)));
});

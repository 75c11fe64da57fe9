import { hash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import Koa from 'koa';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';

// The references the services are measured against, each the least its part of a pet read can
// cost, run as a process of its own so that it shares no thread with the load generator:
//   node reference-server.js R1|RK <mongodb uri>: `node:http` or Koa, and the driver's `findOne`
//     on the pets service's database;
//   node reference-server.js RT <mongodb uri>: R1 traced as the services trace, with the OTEL_*
//     variables they read set: a span for each request and for its database command, exported;
//   node reference-server.js R2|RG <upstream> <API key> <account id>: `node:http` or Koa, the key
//     looked up by its SHA-256 in memory, and an undici `Pool` in front of the upstream (R1, RK).
// It prints `listening <port>` once it accepts connections and stops on SIGTERM.
const [kind = '', ...args] = process.argv.slice(2);

type Answer = { status: number; body: string | Buffer };
type Answerer = (path: string, authorization: string) => Promise<Answer>;

function reader(client: MongoClient) {
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

/**
 * RT's tracing: the services' own set-up from service-kit (the SDK, started from the OTEL_*
 * variables), loaded only here so that the other references carry none of service-kit.
 */
async function tracing() {
  const kit = await import('@petstore/service-kit');
  const stop = await kit.startTracing('RT');
  if (!stop) throw new Error('[bench] RT needs OTEL_EXPORTER_OTLP_ENDPOINT');
  // With tracing on, the services' client makes a span of each command.
  const connect = (uri: string) => kit.connectMongo(uri, { appName: 'RT' });
  const traced =
    (handler: typeof httpHandler): RequestListener =>
    (req, res) => {
      const attributes = {
        'http.request.method': 'GET',
        'http.route': '/v2/pets/{petId}',
      };
      const span = {
        kind: kit.SpanKind.SERVER,
        parent: kit.contextFrom(req.headers),
        attributes,
      };
      void kit.inSpan('GET /v2/pets/{petId}', span, async (active) => {
        await handler(req, res);
        active.setAttribute('http.response.status_code', res.statusCode);
      });
    };
  return { stop, connect, traced };
}

const [first = '', apiKey = '', accountId = ''] = args;
const traces = kind === 'RT' ? await tracing() : undefined;
const connect =
  traces?.connect ?? ((uri: string) => new MongoClient(uri).connect());
const reads = kind === 'R1' || kind === 'RK' || kind === 'RT';
const { answer, close } = reads
  ? reader(await connect(first))
  : proxy(first, apiKey, accountId);

function httpHandler(req: IncomingMessage, res: ServerResponse) {
  return answer(req.url ?? '/', req.headers.authorization ?? '').then(
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
    // The one header a service adds to a v2 read.
    ctx.set('X-Request-Id', ctx.get('X-Request-Id') || 'bench');
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return app.callback();
}

function handler() {
  if (kind === 'RK' || kind === 'RG') return koaHandler();
  if (traces) return traces.traced(httpHandler);
  return (req: IncomingMessage, res: ServerResponse) =>
    void httpHandler(req, res);
}

const server = createServer(handler());
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port =
    typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`listening ${port}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(
    () =>
      void close()
        .then(() => traces?.stop())
        .finally(() => process.exit(0)),
  );
});

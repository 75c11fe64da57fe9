import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { Pool } from 'undici';
import { serve } from './serve.js';

// R2, the least the gateway's read path can cost: `node:http`, the API key looked up by its
// SHA-256 in memory, and an undici `Pool` (as many connections as the gateway keeps) in front of
// R1. RG, started with `koa` after the arguments, is the same proxy in Koa's one middleware in
// front of RK: the least a read through a Koa gateway and a Koa service costs.
// `node dist/reference-proxy.js <upstream url> <API key> <account id> [koa]`.
const [upstream = '', apiKey = '', accountId = '', mode = ''] = process.argv.slice(2);

const sha256 = (token: string) => hash('sha256', token, 'hex');
const keys = new Map([[sha256(apiKey), accountId]]);
const pool = new Pool(upstream, { connections: 128 });

/** The account the request's key belongs to, if any. */
function accountOf(authorization = ''): string | undefined {
  const token = /^Bearer (.+)$/.exec(authorization)?.[1];
  return token === undefined ? undefined : keys.get(sha256(token));
}

/** The upstream's answer to `path` for `account`: status, content type and body. */
async function forward(path: string, account: string) {
  const headers = { 'x-account-id': account };
  const {
    statusCode,
    headers: answered,
    body,
  } = await pool.request({ path, method: 'GET', headers });
  const contentType = answered['content-type'];
  return {
    status: statusCode,
    contentType: typeof contentType === 'string' ? contentType : 'application/json',
    body: Buffer.from(await body.arrayBuffer()),
  };
}

function httpHandler(req: IncomingMessage, res: ServerResponse) {
  const account = accountOf(req.headers.authorization);
  if (account === undefined) {
    res.writeHead(401).end();
    return;
  }
  forward(req.url ?? '/', account)
    .then(({ status, contentType, body }) => {
      res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': body.length });
      res.end(body);
    })
    .catch(() => res.writeHead(502).end());
}

function koaHandler() {
  const app = new Koa();
  app.use(async (ctx) => {
    const account = accountOf(ctx.get('Authorization'));
    if (account === undefined) {
      ctx.status = 401;
      return;
    }
    const { status, contentType, body } = await forward(ctx.url, account);
    ctx.status = status;
    ctx.type = contentType;
    ctx.body = body;
  });
  const handle = app.callback();
  return (req: IncomingMessage, res: ServerResponse) => void handle(req, res);
}

serve(mode === 'koa' ? koaHandler() : httpHandler, () => pool.close());

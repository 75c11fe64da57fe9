import { hash } from 'node:crypto';
import { Pool } from 'undici';
import { serve } from './serve.js';

// R2, the least the gateway's read path can cost: `node:http`, the API key looked up by its
// SHA-256 in memory, and an undici `Pool` (as many connections as the gateway keeps) in front of
// R1. `node dist/reference-proxy.js <R1 url> <API key> <account id>`.
const [upstream = '', apiKey = '', accountId = ''] = process.argv.slice(2);

const sha256 = (token: string) => hash('sha256', token, 'hex');
const keys = new Map([[sha256(apiKey), accountId]]);
const pool = new Pool(upstream, { connections: 128 });

serve(
  (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = token === undefined ? undefined : keys.get(sha256(token));
    if (account === undefined) {
      res.writeHead(401).end();
      return;
    }
    pool
      .request({ path: req.url ?? '/', method: 'GET', headers: { 'x-account-id': account } })
      .then(async ({ statusCode, headers, body }) => {
        const answer = Buffer.from(await body.arrayBuffer());
        res.writeHead(statusCode, {
          'Content-Type': headers['content-type'] ?? 'application/json',
          'Content-Length': answer.length,
        });
        res.end(answer);
      })
      .catch(() => res.writeHead(502).end());
  },
  () => pool.close(),
);

import type { IncomingHttpHeaders } from 'node:http';
import { serveHttp, type ServedHttp } from '@petstore/testkit';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, parsed; undefined when none was sent. */
  body: unknown;
}

export interface Reply {
  status: number;
  body?: unknown;
}

export interface RecordingServer extends ServedHttp {
  requests: RecordedRequest[];
}

/** An HTTP server on a free port of 127.0.0.1 that records each request and answers `reply`. */
export async function startRecordingServer(
  reply: Reply,
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const served = await serveHttp((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      if (reply.body === undefined) {
        res.writeHead(reply.status).end();
      } else {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      }
    });
  });
  return { ...served, requests };
}

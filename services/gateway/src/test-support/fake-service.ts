import type {
  IncomingHttpHeaders,
  IncomingMessage,
  ServerResponse,
} from 'node:http';
import { serveHttp, type ServedHttp } from '@petstore/testkit';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeHandler = (
  request: ReceivedRequest,
  res: ServerResponse,
  req: IncomingMessage,
) => void | Promise<void>;

export interface FakeService extends ServedHttp {
  /** Every request received so far, body included. */
  received: ReceivedRequest[];
}

/** Responds with JSON as a service would. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A small real HTTP server standing in for the pets or store service. */
export async function startFakeService(
  handler: FakeHandler = (request, res) => {
    sendJson(res, 200, { echo: request.url });
  },
): Promise<FakeService> {
  const received: ReceivedRequest[] = [];
  const served = await serveHttp(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf-8'),
      };
      if (request.url !== '/ready') received.push(request);
      await handler(request, res, req);
    } catch {
      // The gateway gave up on this request (a refused body, a timeout): no response is read.
      res.destroy();
    }
  });
  return Object.assign(served, { received });
}

import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { route, startTestService } from './test-support/test-service.js';

const echo = route('POST', '/echo', (ctx) => {
  const body = ctx.request.body;
  ctx.body = {
    received: body ?? null,
    ownProto:
      typeof body === 'object' &&
      body !== null &&
      Object.prototype.hasOwnProperty.call(body, '__proto__'),
    plainPrototype:
      typeof body !== 'object' ||
      body === null ||
      Object.getPrototypeOf(body) === Object.prototype,
  };
});

function post(
  url: string,
  body: string | undefined,
  contentType?: string,
): Promise<Response> {
  return fetch(`${url}/echo`, {
    method: 'POST',
    headers: contentType ? { 'Content-Type': contentType } : {},
    body,
  });
}

/** Sends only the headers of a request that announces `length` bytes, and reads the answer. */
function announce(
  url: string,
  length: number,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/echo`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(length),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.flushHeaders();
  });
}

/** Reads HTTP answers off a raw connection, one at a time. */
function answers(socket: Socket): {
  next: () => Promise<string>;
  closed: Promise<void>;
} {
  let buffered = '';
  let wake = (): void => {};
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      resolve();
    }),
  );
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    buffered += text;
    wake();
  });
  const next = async (): Promise<string> => {
    for (;;) {
      const headEnd = buffered.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(
        buffered.slice(0, headEnd),
      )?.[1];
      const end = headEnd + 4 + Number(length);
      if (headEnd >= 0 && length !== undefined && buffered.length >= end) {
        const answer = buffered.slice(0, end);
        buffered = buffered.slice(end);
        return answer;
      }
      await Promise.race([
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
        closed,
      ]);
      if (socket.destroyed && !buffered.includes('\r\n\r\n'))
        throw new Error('closed');
    }
  };
  return { next, closed };
}

describe('JSON body parsing', () => {
  it('parses a JSON body into ctx.request.body', async () => {
    await using service = await startTestService([echo]);
    const res = await post(
      service.url,
      '{"name":"Rex","tags":["a"]}',
      'application/json',
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      received: { name: 'Rex', tags: ['a'] },
    });
  });

  it.each([
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/merge-patch+json',
  ])('accepts Content-Type %s', async (contentType) => {
    await using service = await startTestService([echo]);
    const res = await post(service.url, '{"a":1}', contentType);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: { a: 1 } });
  });

  it('leaves the body undefined when the request has none', async () => {
    await using service = await startTestService([echo]);
    const res = await post(service.url, undefined);
    expect(await res.json()).toMatchObject({ received: null });
  });

  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['JSON in another charset', 'application/json; charset=iso-8859-1'],
  ])(
    'answers 400 unsupported_content_type for a body with %s',
    async (_, contentType) => {
      await using service = await startTestService([echo]);
      const res = await post(service.url, '{"a":1}', contentType);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe(
        'application/json; charset=utf-8',
      );
      expect(await res.json()).toMatchObject({
        code: 'unsupported_content_type',
        status: 400,
      });
    },
  );

  it('accepts a body of exactly 64 KiB', async () => {
    await using service = await startTestService([echo]);
    const body = JSON.stringify({ pad: 'x'.repeat(64 * 1024 - 10) });
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    const res = await post(service.url, body, 'application/json');
    expect(res.status).toBe(200);
  });

  it('answers 413 payload_too_large for a body of 64 KiB + 1 byte', async () => {
    await using service = await startTestService([echo]);
    const body = JSON.stringify({ pad: 'x'.repeat(64 * 1024 - 9) });
    expect(Buffer.byteLength(body)).toBe(64 * 1024 + 1);
    const res = await post(service.url, body, 'application/json');
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      code: 'payload_too_large',
      status: 413,
    });
  });

  it('answers 413 for a chunked body that grows past the limit', async () => {
    await using service = await startTestService([echo]);
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(`${service.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers 413 as soon as Content-Length announces too much, without reading the body', async () => {
    await using service = await startTestService([echo]);
    const { status, body } = await announce(service.url, 1024 * 1024 * 1024);
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('reads and drops the rest of a body it refused, and keeps the connection', async () => {
    await using service = await startTestService([echo]);
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    const { next } = answers(socket);
    const length = 256 * 1024;
    socket.write(
      `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${length}\r\n\r\n${'x'.repeat(64 * 1024)}`,
    );
    expect(await next()).toMatch(/^HTTP\/1\.1 413 /);
    // Closing now would make the rest of this upload reset the connection.
    socket.write('x'.repeat(length - 64 * 1024));
    socket.write(
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 7\r\n\r\n{"a":1}',
    );
    expect(await next()).toMatch(/^HTTP\/1\.1 200 [^]*"received":\{"a":1\}/);
    socket.destroy();
  });

  it('closes the connection when the rest of a refused body does not come', async () => {
    await using service = await startTestService([echo]);
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    const { next, closed } = answers(socket);
    socket.write(
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
    );
    socket.write(`Content-Length: ${1024 * 1024}\r\n\r\n{`);
    expect(await next()).toMatch(/^HTTP\/1\.1 413 /);
    await closed;
  });

  it('honours a configured body limit', async () => {
    await using service = await startTestService([echo], {
      bodyLimitBytes: 10,
    });
    const res = await post(service.url, '{"a":"12345"}', 'application/json');
    expect(res.status).toBe(413);
  });

  it.each(['{"a":', 'not json', ' ', "{'a':1}"])(
    'answers 400 invalid_json for the body %j',
    async (body) => {
      await using service = await startTestService([echo]);
      const res = await post(service.url, body, 'application/json');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_json',
        status: 400,
      });
    },
  );

  it('keeps a __proto__ key as an own property without polluting any prototype', async () => {
    await using service = await startTestService([echo]);
    const res = await post(
      service.url,
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      'application/json',
    );
    expect(await res.json()).toMatchObject({
      ownProto: true,
      plainPrototype: true,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

import type { Middleware } from 'koa';

/** A tiny JSON body parser standing in for the one a service mounts before its router. */
export const jsonBody: Middleware = async (ctx, next) => {
  if (ctx.is('application/json')) {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) {
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      ctx.request.body =
        text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      ctx.throw(400, 'request body is not valid JSON', {
        code: 'invalid_json',
      });
    }
  }
  await next();
};

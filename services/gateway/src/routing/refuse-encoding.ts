import { refuseEncodedBody } from '../proxy/request-body.js';
import type { GatewayMiddleware } from './gateway-state.js';

/** 415 for a body with a `Content-Encoding` to an operation of the API: bodies are never decoded. */
export const refuseEncoding: GatewayMiddleware = async function refuseEncoding(
  ctx,
  next,
) {
  const { operation } = ctx.state;
  if (operation !== undefined && operation.metadata.auth !== 'internal')
    refuseEncodedBody(ctx);
  await next();
};

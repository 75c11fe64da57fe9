import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiVersion, errorStatus, type ErrorBody, type ErrorCode } from '@petstore/contract';
import type { Logger } from './logger.js';

type ParserError = Error & { code?: string; reason?: string };

function refusalOf(error: ParserError): { code: ErrorCode; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'headers_too_large',
      message: 'the request line and headers are larger than 16 KiB',
    };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', message: 'the request did not arrive in time' };
  }
  const reason = error.reason ?? error.code ?? 'unreadable';
  return { code: 'malformed_request', message: `the request is not valid HTTP/1.1: ${reason}` };
}

/**
 * Responds to what Node's parser refuses before the app runs with the Error body, where Node
 * would write a bare 400, 408 or 431. Logged without the raw bytes, which may hold a key.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: ParserError, socket: Duplex & { bytesWritten?: number }) => {
    // A client gone, or a response already started: nothing more can be sent.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const { code, message } = refusalOf(error);
    const status = errorStatus[code];
    const requestId = randomUUID();
    logger.warn({ requestId, parserError: error.code, reason: error.reason }, message);
    const json = JSON.stringify({ code, message, status, requestId } satisfies ErrorBody);
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(json)}`,
      `API-Version: ${apiVersion}`,
      `X-Request-Id: ${requestId}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Connection: close',
    ];
    socket.end([...head, '', json].join('\r\n'));
  });
}

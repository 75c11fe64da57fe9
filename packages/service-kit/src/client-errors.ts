import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiVersion, errorStatus, type ErrorBody, type ErrorCode } from '@petstore/contract';
import type { Logger } from './logger.js';

/** What Node's HTTP parser reports: `HPE_…` codes (llhttp) and their reason. */
type ParserError = Error & { code?: string; reason?: string };

function refusalOf(error: ParserError): { code: ErrorCode; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'headers_too_large',
        message: 'the request line and headers are larger than 16 KiB',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'the request did not arrive in time' };
    default:
      return {
        code: 'malformed_request',
        message: `the request is not valid HTTP/1.1: ${error.reason ?? error.code ?? 'unreadable'}`,
      };
  }
}

/**
 * Answers what Node's HTTP parser refuses before any of the app's code runs (oversized headers,
 * bad framing, a method in lower case, a request that never arrived) with the Error shape, an
 * `X-Request-Id` and `API-Version`, as every other answer, then closes the connection, which can
 * no longer be read. Without this Node writes a bare 400, 408 or 431. The client's mistake is
 * logged at warn, without the raw bytes (they may hold a key).
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: ParserError, socket: Duplex & { bytesWritten?: number }) => {
    // A client gone, or an answer already on its way: nothing can be said any more.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const { code, message } = refusalOf(error);
    const status = errorStatus[code];
    const requestId = randomUUID();
    logger.warn({ requestId, parserError: error.code, reason: error.reason }, message);
    const body: ErrorBody = { code, message, status, requestId };
    const json = JSON.stringify(body);
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(json)}`,
        `API-Version: ${apiVersion}`,
        `X-Request-Id: ${requestId}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        json,
      ].join('\r\n'),
    );
  });
}

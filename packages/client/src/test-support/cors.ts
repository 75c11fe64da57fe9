import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Lets a page of another origin (the browser run's) call a test server: answers a CORS
 * preflight, allowing what it asks for, and returns true; otherwise adds the headers an answer
 * needs, so that the page may read every header in `exposed`, and returns false.
 */
export function answeredPreflight(
  req: IncomingMessage,
  res: ServerResponse,
  exposed: string[] = [],
): boolean {
  res.setHeader('access-control-allow-origin', '*');
  const method = req.headers['access-control-request-method'];
  if (req.method !== 'OPTIONS' || method === undefined) {
    if (exposed.length > 0)
      res.setHeader('access-control-expose-headers', exposed.join(', '));
    return false;
  }
  res.writeHead(204, {
    'access-control-allow-methods': method,
    'access-control-allow-headers':
      req.headers['access-control-request-headers'] ?? '',
  });
  res.end();
  return true;
}

import type { SampleRequest } from './sample-request.js';
import { shellQuote } from './shell-quote.js';

/** A cURL command for the request; `-i` shows the status and headers. */
export function curlSample(request: SampleRequest): string {
  const method = request.method === 'GET' ? '' : ` -X ${request.method}`;
  const hasBody = request.body !== undefined;
  const lines = [
    `curl -i${method} ${shellQuote(request.url)}`,
    // Double quotes, so that the shell expands the key.
    ...(request.auth ? ['-H "Authorization: Bearer $API_KEY"'] : []),
    ...(hasBody ? [`-H ${shellQuote('Content-Type: application/json')}`] : []),
    ...request.headers.map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
    ...(hasBody ? [`-d ${shellQuote(JSON.stringify(request.body))}`] : []),
  ];
  return lines.join(' \\\n  ');
}

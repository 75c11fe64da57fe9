import { jsKey, jsString } from './js-literal.js';
import type { SampleRequest } from './sample-request.js';

const printResult: Record<SampleRequest['response'], string> = {
  json: 'console.log(response.status, await response.json());',
  text: 'console.log(response.status, await response.text());',
  none: 'console.log(response.status);',
};

/** An ES module using fetch (top-level await), reading the key from `API_KEY`. */
export function javascriptSample(request: SampleRequest): string {
  const headers = [
    ...(request.auth ? ['Authorization: `Bearer ${process.env.API_KEY}`'] : []),
    ...(request.body === undefined ? [] : [`'Content-Type': 'application/json'`]),
    ...request.headers.map(([name, value]) => `${jsKey(name)}: ${jsString(value)}`),
  ];
  const options = [
    ...(request.method === 'GET' ? [] : [`method: '${request.method}'`]),
    ...(headers.length === 0
      ? []
      : [`headers: {\n${headers.map((h) => `    ${h},`).join('\n')}\n  }`]),
    ...(request.body === undefined
      ? []
      : [`body: JSON.stringify(${JSON.stringify(request.body, null, 2).replace(/\n/g, '\n  ')})`]),
  ];
  const init = options.length === 0 ? '' : `, {\n${options.map((o) => `  ${o},`).join('\n')}\n}`;
  return `const response = await fetch(${jsString(request.url)}${init});\n${printResult[request.response]}`;
}

import type { ContractOperation } from '../../contract-operations.js';
import { sampleRequest, type SampleRequest } from './sample-request.js';

export interface CodeSample {
  lang: 'cURL' | 'JavaScript' | 'Python';
  label: string;
  source: string;
}

/** The same example call of an operation in each language, aimed at `serverUrl`. */
export function codeSamples(
  operation: ContractOperation,
  serverUrl: string,
): CodeSample[] {
  const request = sampleRequest(operation, serverUrl);
  return [
    { lang: 'cURL', label: 'cURL', source: curlSample(request) },
    {
      lang: 'JavaScript',
      label: 'JavaScript (fetch)',
      source: javascriptSample(request),
    },
    {
      lang: 'Python',
      label: 'Python (requests)',
      source: pythonSample(request),
    },
  ];
}

/** A cURL command for the request; `-i` shows the status and headers. */
export function curlSample(request: SampleRequest): string {
  const method = request.method === 'GET' ? '' : ` -X ${request.method}`;
  const hasBody = request.body !== undefined;
  const lines = [
    `curl -i${method} ${shellQuote(request.url)}`,
    // Double quotes, so that the shell expands the key.
    ...(request.auth ? ['-H "Authorization: Bearer $API_KEY"'] : []),
    ...(hasBody ? [`-H ${shellQuote('Content-Type: application/json')}`] : []),
    ...request.headers.map(
      ([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`,
    ),
    ...(hasBody ? [`-d ${shellQuote(JSON.stringify(request.body))}`] : []),
  ];
  return lines.join(' \\\n  ');
}

/** An ES module using fetch (top-level await), reading the key from `API_KEY`. */
export function javascriptSample(request: SampleRequest): string {
  const headers = [
    ...(request.auth ? ['Authorization: `Bearer ${process.env.API_KEY}`'] : []),
    ...(request.body === undefined
      ? []
      : [`'Content-Type': 'application/json'`]),
    ...request.headers.map(
      ([name, value]) => `${jsKey(name)}: ${jsString(value)}`,
    ),
  ];
  const options = [
    ...(request.method === 'GET' ? [] : [`method: '${request.method}'`]),
    ...(headers.length === 0
      ? []
      : [`headers: {\n${headers.map((h) => `    ${h},`).join('\n')}\n  }`]),
    ...(request.body === undefined
      ? []
      : [
          `body: JSON.stringify(${JSON.stringify(request.body, null, 2).replace(/\n/g, '\n  ')})`,
        ]),
  ];
  const init =
    options.length === 0
      ? ''
      : `, {\n${options.map((o) => `  ${o},`).join('\n')}\n}`;
  const read =
    request.response === 'none' ? '' : `, await response.${request.response}()`;
  return `const response = await fetch(${jsString(request.url)}${init});\nconsole.log(response.status${read});`;
}

/** A script using requests, reading the key from `API_KEY`. */
export function pythonSample(request: SampleRequest): string {
  const headers = [
    ...(request.auth
      ? [`"Authorization": f"Bearer {os.environ['API_KEY']}"`]
      : []),
    ...request.headers.map(
      ([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`,
    ),
  ];
  const args = [
    JSON.stringify(request.url),
    ...(headers.length === 0
      ? []
      : [
          `headers={\n${headers.map((h) => `        ${h},`).join('\n')}\n    }`,
        ]),
    ...(request.body === undefined
      ? []
      : [`json=${pythonLiteral(request.body, '    ')}`]),
    'timeout=10',
  ];
  const imports = request.auth
    ? 'import os\n\nimport requests'
    : 'import requests';
  const call = `requests.${request.method.toLowerCase()}(\n${args.map((a) => `    ${a},`).join('\n')}\n)`;
  const read = { json: ', response.json()', text: ', response.text', none: '' };
  return `${imports}\n\nresponse = ${call}\nprint(response.status_code${read[request.response]})`;
}

/** One shell word, single-quoted so nothing inside it is expanded. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function jsString(value: string): string {
  const escaped = JSON.stringify(value)
    .slice(1, -1)
    .replace(/\\(.)|'/g, (match, escape?: string) => {
      // JSON's \" needs no escape in single quotes; a bare ' does.
      if (escape === '"') return '"';
      if (escape === undefined) return "\\'";
      return match;
    });
  return `'${escaped}'`;
}

/** An object key: bare when it is an identifier, quoted otherwise. */
export function jsKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : jsString(name);
}

/** A Python literal for a JSON value, one item a line with trailing commas. */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) {
    return 'None';
  }
  if (typeof value === 'boolean') {
    return value ? 'True' : 'False';
  }
  if (typeof value !== 'object') {
    // JSON's number and string literals are Python's too.
    return JSON.stringify(value);
  }
  const inner = `${indent}    `;
  const items = Array.isArray(value)
    ? value.map((item) => pythonLiteral(item, inner))
    : Object.entries(value).map(
        ([key, item]) =>
          `${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) {
    return open + close;
  }
  return `${open}\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}${close}`;
}

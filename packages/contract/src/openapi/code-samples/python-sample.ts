import { pythonLiteral } from './python-literal.js';
import type { SampleRequest } from './sample-request.js';

const printResult: Record<SampleRequest['response'], string> = {
  json: 'print(response.status_code, response.json())',
  text: 'print(response.status_code, response.text)',
  none: 'print(response.status_code)',
};

/** A script using requests, reading the key from `API_KEY`. */
export function pythonSample(request: SampleRequest): string {
  const headers = [
    ...(request.auth ? [`"Authorization": f"Bearer {os.environ['API_KEY']}"`] : []),
    ...request.headers.map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`),
  ];
  const args = [
    JSON.stringify(request.url),
    ...(headers.length === 0
      ? []
      : [`headers={\n${headers.map((h) => `        ${h},`).join('\n')}\n    }`]),
    ...(request.body === undefined ? [] : [`json=${pythonLiteral(request.body, '    ')}`]),
    'timeout=10',
  ];
  const imports = request.auth ? 'import os\n\nimport requests' : 'import requests';
  const call = `requests.${request.method.toLowerCase()}(\n${args.map((a) => `    ${a},`).join('\n')}\n)`;
  return `${imports}\n\nresponse = ${call}\n${printResult[request.response]}`;
}

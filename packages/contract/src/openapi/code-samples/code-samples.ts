import type { ContractOperation } from '../../contract-operations.js';
import { curlSample } from './curl-sample.js';
import { javascriptSample } from './javascript-sample.js';
import { pythonSample } from './python-sample.js';
import { sampleRequest } from './sample-request.js';

/** One entry of `x-codeSamples`. */
export interface CodeSample {
  lang: 'cURL' | 'JavaScript' | 'Python';
  label: string;
  source: string;
}

/** The same example call of an operation in each language, aimed at `serverUrl`. */
export function codeSamples(operation: ContractOperation, serverUrl: string): CodeSample[] {
  const request = sampleRequest(operation, serverUrl);
  return [
    { lang: 'cURL', label: 'cURL', source: curlSample(request) },
    { lang: 'JavaScript', label: 'JavaScript (fetch)', source: javascriptSample(request) },
    { lang: 'Python', label: 'Python (requests)', source: pythonSample(request) },
  ];
}

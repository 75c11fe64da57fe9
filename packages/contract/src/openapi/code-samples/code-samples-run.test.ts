import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateOpenApi } from '../generate-openapi.js';
import { operationById } from '../test-support/document-walk.js';
import { contract } from '../../contract.js';
import { startRecordingServer } from '../../test-support/recording-server.js';
import type { CodeSample } from './code-samples.js';

const run = promisify(execFile);
const apiKey = 'psk_0123456789abcdefghijklmnopqrstuv';

function placeOrderSample(serverUrl: string, lang: CodeSample['lang']): string {
  const document = generateOpenApi(contract, { servers: [{ url: serverUrl }] });
  const samples = operationById(document, 'placeOrder')[
    'x-codeSamples'
  ] as CodeSample[];
  const sample = samples.find((candidate) => candidate.lang === lang);
  if (sample === undefined) {
    throw new Error(`placeOrder has no ${lang} sample`);
  }
  return sample.source;
}

const env = { ...process.env, API_KEY: apiKey };
const expectedRequest = {
  method: 'POST',
  url: '/v2/store/orders',
  headers: expect.objectContaining({
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
    'idempotency-key': 'ec15cbb1-41c9-e207-c05a-563519863291',
  }) as unknown,
  body: { petId: 1, quantity: 1, shipDate: '2026-12-01T10:00:00Z' },
};
const answer = { status: 201, body: { recorded: true } };

describe('code samples run as they are', () => {
  it('sends placeOrder from the JavaScript sample and prints the status and JSON', async () => {
    await using server = await startRecordingServer(answer);
    const source = placeOrderSample(server.url, 'JavaScript');

    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', source],
      { env },
    );

    expect(server.requests).toEqual([expectedRequest]);
    expect(stdout).toBe('201 { recorded: true }\n');
  });

  it('sends placeOrder from the cURL sample', async () => {
    await using server = await startRecordingServer(answer);
    const source = placeOrderSample(server.url, 'cURL');

    const { stdout } = await run('bash', ['-c', source], { env });

    expect(server.requests).toEqual([expectedRequest]);
    expect(stdout).toMatch(/^HTTP\/1\.1 201 /);
  });
});

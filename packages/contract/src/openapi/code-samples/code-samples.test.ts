import { describe, expect, it } from 'vitest';
import { contract } from '../../contract.js';
import { generateOpenApi } from '../generate-openapi.js';
import { operationById } from '../test-support/document-walk.js';
import type { CodeSample } from './code-samples.js';

const document = generateOpenApi(contract);

function samplesOf(operationId: string): Record<string, string> {
  const samples = operationById(document, operationId)[
    'x-codeSamples'
  ] as CodeSample[];
  return Object.fromEntries(samples.map(({ lang, source }) => [lang, source]));
}

describe('x-codeSamples', () => {
  it('labels the three languages', () => {
    const samples = operationById(document, 'getPet')[
      'x-codeSamples'
    ] as CodeSample[];
    expect(samples.map(({ lang, label }) => [lang, label])).toEqual([
      ['cURL', 'cURL'],
      ['JavaScript', 'JavaScript (fetch)'],
      ['Python', 'Python (requests)'],
    ]);
  });

  it('places an order with a body built from the examples and an Idempotency-Key', () => {
    expect(samplesOf('placeOrder')).toEqual({
      cURL: `curl -i -X POST 'http://127.0.0.1:8080/v2/store/orders' \\
  -H "Authorization: Bearer $API_KEY" \\
  -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: ec15cbb1-41c9-e207-c05a-563519863291' \\
  -d '{"petId":1,"quantity":1,"shipDate":"2026-12-01T10:00:00Z"}'`,
      JavaScript: `const response = await fetch('http://127.0.0.1:8080/v2/store/orders', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.API_KEY}\`,
    'Content-Type': 'application/json',
    'Idempotency-Key': 'ec15cbb1-41c9-e207-c05a-563519863291',
  },
  body: JSON.stringify({
    "petId": 1,
    "quantity": 1,
    "shipDate": "2026-12-01T10:00:00Z"
  }),
});
console.log(response.status, await response.json());`,
      Python: `import os

import requests

response = requests.post(
    "http://127.0.0.1:8080/v2/store/orders",
    headers={
        "Authorization": f"Bearer {os.environ['API_KEY']}",
        "Idempotency-Key": "ec15cbb1-41c9-e207-c05a-563519863291",
    },
    json={
        "petId": 1,
        "quantity": 1,
        "shipDate": "2026-12-01T10:00:00Z",
    },
    timeout=10,
)
print(response.status_code, response.json())`,
    });
  });

  it('fills the path id of getPet from its example', () => {
    expect(samplesOf('getPet')).toEqual({
      cURL: `curl -i 'http://127.0.0.1:8080/v2/pets/1' \\
  -H "Authorization: Bearer $API_KEY"`,
      JavaScript: `const response = await fetch('http://127.0.0.1:8080/v2/pets/1', {
  headers: {
    Authorization: \`Bearer \${process.env.API_KEY}\`,
  },
});
console.log(response.status, await response.json());`,
      Python: `import os

import requests

response = requests.get(
    "http://127.0.0.1:8080/v2/pets/1",
    headers={
        "Authorization": f"Bearer {os.environ['API_KEY']}",
    },
    timeout=10,
)
print(response.status_code, response.json())`,
    });
  });

  it('lists pets with the query parameters that have examples, repeating arrays', () => {
    const url =
      'http://127.0.0.1:8080/v2/pets?limit=20&status=available&categoryId=1';
    const samples = samplesOf('listPets');

    expect(samples.cURL).toBe(
      `curl -i '${url}' \\\n  -H "Authorization: Bearer $API_KEY"`,
    );
    expect(samples.JavaScript).toContain(`await fetch('${url}', {`);
    expect(samples.Python).toContain(`    "${url}",\n`);
  });

  it('creates an account without an API key, with an Idempotency-Key', () => {
    expect(samplesOf('createAccount')).toEqual({
      cURL: `curl -i -X POST 'http://127.0.0.1:8080/v2/accounts' \\
  -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: a1f04685-9d60-7f45-42cb-3ca6c377a67e' \\
  -d '{"email":"jane@example.com","name":"Jane Doe"}'`,
      JavaScript: `const response = await fetch('http://127.0.0.1:8080/v2/accounts', {
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    'Idempotency-Key': 'a1f04685-9d60-7f45-42cb-3ca6c377a67e',
  },
  body: JSON.stringify({
    "email": "jane@example.com",
    "name": "Jane Doe"
  }),
});
console.log(response.status, await response.json());`,
      Python: `import requests

response = requests.post(
    "http://127.0.0.1:8080/v2/accounts",
    headers={
        "Idempotency-Key": "a1f04685-9d60-7f45-42cb-3ca6c377a67e",
    },
    json={
        "email": "jane@example.com",
        "name": "Jane Doe",
    },
    timeout=10,
)
print(response.status_code, response.json())`,
    });
  });

  it('prints only the status when the operation answers without a body, and text for HTML', () => {
    expect(samplesOf('deletePet').JavaScript).toMatch(
      /\nconsole\.log\(response\.status\);$/,
    );
    expect(samplesOf('deletePet').Python).toMatch(
      /\nprint\(response\.status_code\)$/,
    );
    expect(samplesOf('docs').JavaScript).toBe(
      "const response = await fetch('http://127.0.0.1:8080/docs');\n" +
        'console.log(response.status, await response.text());',
    );
  });
});

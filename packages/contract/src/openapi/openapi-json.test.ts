import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contract } from '../contract.js';
import { generateOpenApi } from './generate-openapi.js';
import { openApiJson, openApiJsonUrl } from './generate-openapi.js';

describe('openapi.json', () => {
  it('is what the contract generates now', () => {
    const committed = existsSync(openApiJsonUrl)
      ? readFileSync(openApiJsonUrl, 'utf8')
      : '';
    const generated = openApiJson(generateOpenApi(contract));
    const committedLines = committed.split('\n');
    const line = generated
      .split('\n')
      .findIndex((text, index) => text !== committedLines[index]);

    expect(
      committed === generated,
      `packages/contract/openapi.json is stale from line ${line + 1}: ` +
        'run `pnpm --filter @petstore/contract openapi` and commit it',
    ).toBe(true);
  });
});

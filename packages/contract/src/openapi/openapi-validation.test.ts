import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { generateOpenApi } from './generate-openapi.js';
import { contract } from '../contract.js';

describe('the generated document', () => {
  it('passes an independent OpenAPI 3.0 validator with no errors', async () => {
    // validate() dereferences in place, so it gets its own copy.
    const document = structuredClone(
      generateOpenApi(contract),
    ) as OpenAPI.Document;
    await expect(SwaggerParser.validate(document)).resolves.toBeDefined();
  });
});

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contract } from '../contract.js';
import {
  generateOpenApi,
  openApiJson,
  openApiJsonUrl,
} from './generate-openapi.js';

writeFileSync(openApiJsonUrl, openApiJson(generateOpenApi(contract)));
console.log(`[openapi] wrote ${fileURLToPath(openApiJsonUrl)}`);

import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema of the contract carries OpenAPI metadata (names, formats, examples) via `.openapi()`.
extendZodWithOpenApi(z);

export { z };

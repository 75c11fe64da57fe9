import { describe, expect } from 'vitest';
import { it } from '../test-support/gateway-harness.js';

describe('/docs and the API key', () => {
  it('opens with the bearer scheme of the document selected', async ({ gateway }) => {
    const init = await (await fetch(`${gateway.url}/docs/init.js`)).text();
    const preferred = /"preferredSecurityScheme":"([^"]+)"/.exec(init)?.[1];
    const document = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as {
      components: { securitySchemes: Record<string, { scheme?: string }> };
    };
    expect(preferred).toBeDefined();
    expect(document.components.securitySchemes[preferred ?? '']).toMatchObject({
      scheme: 'bearer',
    });
  });

  it('tells the reader which key to paste, and where', async ({ gateway }) => {
    const html = await (await fetch(`${gateway.url}/docs`)).text();
    const hint = /<p class="petstore-key-hint"[^>]*>([\s\S]*?)<\/p>/
      .exec(html)?.[1]
      ?.replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
    expect(hint).toContain('paste an API key as the Bearer Token under Authentication');
    expect(hint).toContain('the admin key (ADMIN_API_KEY');
    expect(hint).toContain('POST /v1/accounts');
  });
});

import { describe, expect } from 'vitest';
import { it } from '../test-support/gateway-harness.js';

describe('/docs', () => {
  it('opens with the bearer scheme of the document selected', async ({
    gateway,
  }) => {
    const init = await (await fetch(`${gateway.url}/docs/init.js`)).text();
    const preferred = /"preferredSecurityScheme":"([^"]+)"/.exec(init)?.[1];
    const document = (await (
      await fetch(`${gateway.url}/openapi.json`)
    ).json()) as {
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
    expect(hint).toContain(
      'paste an API key as the Bearer Token under Authentication',
    );
    expect(hint).toContain('the admin key (ADMIN_API_KEY');
    expect(hint).toContain('POST /v2/accounts');
  });

  it('hides Test Request on exactly the operations whose entry has x-hideTryItPanel', async ({
    gateway,
  }) => {
    const html = await (await fetch(`${gateway.url}/docs`)).text();
    const hiddenOn = [
      ...html.matchAll(/section\[id\$="([^"]+)"\] \.show-api-client-button/g),
    ].map(([, idEnd]) => idEnd);
    const document = (await (
      await fetch(`${gateway.url}/openapi.json`)
    ).json()) as {
      paths: Record<string, Record<string, { 'x-hideTryItPanel'?: boolean }>>;
    };
    const flagged = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation['x-hideTryItPanel'] === true)
        .map(([method]) => `/${method.toUpperCase()}${path}`),
    );
    expect(flagged).toContain('/GET/v1/store/orders');
    expect(hiddenOn).toEqual(flagged);
  });
});

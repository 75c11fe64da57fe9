import { beforeAll, describe, expect, it } from 'vitest';
import { callHttp, type HttpCallOptions } from '@petstore/testkit';
import { stockedPet } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';

// The gateway's answers are JSON for programs, a reference page and its scripts. Each carries
// headers that keep browsers from sniffing, framing, leaking referrers or caching what a key
// fetched, on success and error alike.

let customerKey: string;
let petId: number;

const api = testStackForFile();

beforeAll(async () => {
  const customer = await api.signUp();
  customerKey = customer.apiKey;
  ({ petId } = await stockedPet(api.admin, 100));
});

interface Exchange {
  label: string;
  method: string;
  path: string;
  options?: HttpCallOptions;
  /** Sent with an API key or answering one: must never be stored by a cache. */
  authenticated: boolean;
}

/** An exchange sent with an API key or answering one. */
function withKey(
  label: string,
  method: string,
  path: string,
  options?: HttpCallOptions,
): Exchange {
  return { label, method, path, options, authenticated: true };
}

/** An exchange with no key on either side. */
function keyless(label: string, method: string, path: string): Exchange {
  return { label, method, path, authenticated: false };
}

/** Answers of every kind: the gateway's own and proxied, success and error, meta and docs. */
function exchanges(): Exchange[] {
  const key = customerKey;
  const admin = api.stack.adminApiKey;
  const json = { 'content-type': 'application/json' };
  return [
    withKey('200 own', 'GET', '/v1/accounts/me', { apiKey: key }),
    withKey('200 proxied', 'GET', '/v1/pets', { apiKey: key }),
    withKey('201 sign-up (shows a key)', 'POST', '/v1/accounts', {
      body: { email: `headers.${Date.now()}@example.com` },
    }),
    withKey('201 proxied', 'POST', '/v1/store/orders', {
      apiKey: key,
      body: { petId, quantity: 1 },
    }),
    withKey('202 own', 'POST', '/v1/messages', {
      apiKey: key,
      body: { message: 'hi' },
    }),
    withKey('201 key', 'POST', '/v1/accounts/me/keys', { apiKey: key }),
    withKey('HEAD', 'HEAD', '/v1/pets', { apiKey: key }),
    withKey('400 own', 'POST', '/v1/messages', {
      apiKey: key,
      body: { message: '' },
    }),
    withKey('400 invalid JSON', 'POST', '/v1/store/orders', {
      apiKey: key,
      body: '{',
      headers: json,
    }),
    withKey('401', 'GET', '/v1/accounts/me'),
    withKey('401 bad key', 'GET', '/v1/store/orders', {
      apiKey: `psk_${'A'.repeat(40)}`,
    }),
    withKey('403', 'POST', '/v1/categories', {
      apiKey: key,
      body: { name: 'Nope' },
    }),
    withKey('404 proxied', 'GET', '/v1/store/orders/999999', { apiKey: key }),
    withKey('404 route', 'GET', '/v1/nothing', { apiKey: key }),
    withKey('405', 'PATCH', '/v1/pets', { apiKey: admin }),
    keyless('OPTIONS', 'OPTIONS', '/v1/pets'),
    withKey('413', 'POST', '/v1/messages', {
      apiKey: key,
      body: { message: 'x'.repeat(70_000) },
    }),
    keyless('health', 'GET', '/health'),
    keyless('ready', 'GET', '/ready'),
    keyless('openapi', 'GET', '/openapi.json'),
    keyless('docs', 'GET', '/docs'),
    keyless('docs script', 'GET', '/docs/scalar.js'),
    keyless('docs init', 'GET', '/docs/init.js'),
  ];
}

const SAFE_REFERRER_POLICIES = [
  'no-referrer',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
];

/** A content security policy as directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name !== undefined && name !== '')
      .map(([name = '', ...sources]) => [name.toLowerCase(), sources]),
  );
}

function framingRefused(headers: Headers): boolean {
  const frameOptions = headers.get('x-frame-options')?.toUpperCase();
  if (frameOptions === 'DENY' || frameOptions === 'SAMEORIGIN') return true;
  const ancestors = directives(
    headers.get('content-security-policy') ?? '',
  ).get('frame-ancestors');
  return (
    ancestors !== undefined &&
    ancestors.every((s) => s === "'none'" || s === "'self'")
  );
}

function answered({ method, path, options }: Exchange) {
  return callHttp(api.url, method, path, options);
}

describe('security headers of the gateway', () => {
  it('are on every answer: nosniff, a referrer policy, no framing, no banner', async () => {
    const labels = new Set<string>();
    for (const exchange of exchanges()) {
      const res = await answered(exchange);
      labels.add(`${res.status}`);
      const { headers } = res;
      expect({
        label: exchange.label,
        nosniff: headers.get('x-content-type-options'),
        referrerPolicy: SAFE_REFERRER_POLICIES.includes(
          headers.get('referrer-policy') ?? '',
        ),
        framingRefused: framingRefused(headers),
        poweredBy: headers.get('x-powered-by'),
        versionInServer: /\d/.test(headers.get('server') ?? ''),
      }).toEqual({
        label: exchange.label,
        nosniff: 'nosniff',
        referrerPolicy: true,
        framingRefused: true,
        poweredBy: null,
        versionInServer: false,
      });
    }
    // The list above did reach every kind of answer it names.
    expect([...labels].sort()).toEqual(
      [
        '200',
        '201',
        '202',
        '204',
        '400',
        '401',
        '403',
        '404',
        '405',
        '413',
      ].sort(),
    );
  });

  it('forbid caching of every answer to or with a key', async () => {
    for (const exchange of exchanges().filter(
      ({ authenticated }) => authenticated,
    )) {
      const res = await answered(exchange);
      const cacheControl = (
        res.headers.get('cache-control') ?? ''
      ).toLowerCase();
      expect({
        label: exchange.label,
        noStore: cacheControl.split(/\s*,\s*/).includes('no-store'),
      }).toEqual({ label: exchange.label, noStore: true });
      expect(cacheControl).not.toMatch(/public/);
    }
  });

  it('keep the answers of a stopped service as strict as any other', async () => {
    await api.stack.store.stop();
    try {
      const res = await callHttp(api.url, 'GET', '/v1/store/orders', {
        apiKey: customerKey,
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(framingRefused(res.headers)).toBe(true);
    } finally {
      await api.stack.store.start();
    }
  });

  it('give the JSON answers a policy that lets them load and run nothing', async () => {
    for (const path of ['/v1/pets', '/openapi.json', '/v1/nothing']) {
      const res = await callHttp(api.url, 'GET', path, { apiKey: customerKey });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const policy = directives(
        res.headers.get('content-security-policy') ?? '',
      );
      expect({ path, defaultSrc: policy.get('default-src') }).toEqual({
        path,
        defaultSrc: ["'none'"],
      });
    }
  });
});

describe('the reference page', () => {
  it('allows scripts from its own origin only, and nothing inline or evaluated', async () => {
    const res = await callHttp(api.url, 'GET', '/docs');
    expect(res.status).toBe(200);
    const policy = directives(res.headers.get('content-security-policy') ?? '');
    const scriptSources = policy.get('script-src') ?? policy.get('default-src');
    expect(scriptSources).toEqual(["'self'"]);
    for (const directive of ['script-src-elem', 'script-src-attr']) {
      expect(policy.get(directive) ?? ["'self'"]).toEqual(["'self'"]);
    }
    expect(policy.get('object-src') ?? policy.get('default-src')).toEqual([
      "'none'",
    ]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    const framing = policy.get('frame-ancestors');
    expect(framing).toEqual(["'none'"]);
  });

  it('loads only scripts of its own origin, by address, with no inline script', async () => {
    const html = (await callHttp<string>(api.url, 'GET', '/docs')).body;
    const scripts = [
      ...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi),
    ];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', content = ''] of scripts) {
      expect(content.trim()).toBe('');
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1] ?? '';
      expect(src).toMatch(/^\/[^/]/);
      const loaded = await callHttp(api.url, 'GET', src);
      expect({ src, status: loaded.status }).toEqual({ src, status: 200 });
      expect(loaded.headers.get('content-type')).toMatch(
        /^(application|text)\/javascript/,
      );
    }
    expect(html).not.toMatch(/\bon[a-z]+\s*=/i);
    expect(html).not.toMatch(/https?:\/\//);
  });
});

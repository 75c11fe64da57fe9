import { describe, expect, it } from 'vitest';
import { unusableResponse } from './response-check.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const check = (
  status: number,
  body: string,
  contentType: string | undefined = JSON_TYPE,
) => unusableResponse('GET', status, contentType, Buffer.from(body));

describe('unusableResponse', () => {
  it('passes successful answers framed as a JSON object or array, whitespace around them', () => {
    expect(check(200, '{"id":1,"name":"Rex"}')).toBeUndefined();
    expect(check(201, ' \r\n{"id":1}\n')).toBeUndefined();
    expect(check(200, '[]')).toBeUndefined();
    expect(
      check(200, '[{"id":1}]', 'application/problem+json'),
    ).toBeUndefined();
  });

  it('refuses successful answers that are not JSON, cut short, empty or not an object or array', () => {
    for (const body of [
      '<h1>hello</h1>',
      '{"id": 1,',
      '[{"id":1}',
      '',
      '   ',
      '"Rex"',
      '42',
      '{',
    ]) {
      expect(check(200, body), JSON.stringify(body)).toBe(
        'answered 200 with a body that is not JSON',
      );
    }
    expect(check(200, '{}', 'text/html')).toBe(
      'answered 200 with content type text/html',
    );
    expect(unusableResponse('GET', 200, undefined, Buffer.from('{}'))).toBe(
      'answered 200 with content type none',
    );
  });

  it('parses error answers: only the contract’s Error for the same status passes', () => {
    const error = (status: number) =>
      JSON.stringify({ code: 'not_found', message: 'x', status });
    expect(check(404, error(404))).toBeUndefined();
    const notAnError = 'answered 404 with a body that is not an Error';
    expect(check(404, error(400))).toBe(notAnError);
    expect(check(404, '{"error": "boom"}')).toBe(notAnError);
    expect(check(404, '{"code":"not_found",')).toBe(notAnError);
  });

  it('refuses a 401 (the service refused the gateway) and passes answers without a body', () => {
    expect(
      check(
        401,
        JSON.stringify({ code: 'unauthorized', message: 'x', status: 401 }),
      ),
    ).toBe('refused the gateway’s credentials');
    expect(check(204, '')).toBeUndefined();
    expect(
      unusableResponse('HEAD', 200, JSON_TYPE, Buffer.alloc(0)),
    ).toBeUndefined();
  });
});

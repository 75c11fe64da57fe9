import { describe, expect, it } from 'vitest';
import { pythonLiteral } from './code-samples.js';

describe('pythonLiteral', () => {
  it('writes JSON values as Python, one item a line', () => {
    expect(
      pythonLiteral({
        complete: false,
        tags: ['a'],
        note: null,
        quantity: 2,
        empty: {},
      }),
    ).toBe(`{
    "complete": False,
    "tags": [
        "a",
    ],
    "note": None,
    "quantity": 2,
    "empty": {},
}`);
  });
});

/** A Python literal for a JSON value, one item a line with trailing commas. */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) {
    return 'None';
  }
  if (typeof value === 'boolean') {
    return value ? 'True' : 'False';
  }
  if (typeof value !== 'object') {
    // JSON's number and string literals are Python's too.
    return JSON.stringify(value);
  }
  const inner = `${indent}    `;
  const items = Array.isArray(value)
    ? value.map((item) => pythonLiteral(item, inner))
    : Object.entries(value).map(
        ([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) {
    return open + close;
  }
  return `${open}\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}${close}`;
}

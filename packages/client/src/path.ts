/** A path with every value in it URL-encoded: path`/v2/webhooks/${id}`. */
export function path(
  strings: TemplateStringsArray,
  ...values: (string | number)[]
): string {
  return strings.reduce(
    (out, part, index) => out + encodeURIComponent(values[index - 1]!) + part,
  );
}

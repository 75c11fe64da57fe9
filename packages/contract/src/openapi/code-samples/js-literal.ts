/** A single-quoted JavaScript string literal. */
export function jsString(value: string): string {
  const escaped = JSON.stringify(value)
    .slice(1, -1)
    .replace(/\\(.)|'/g, (match, escape?: string) =>
      escape === '"' ? '"' : escape === undefined ? "\\'" : match,
    );
  return `'${escaped}'`;
}

/** An object key: bare when it is an identifier, quoted otherwise. */
export function jsKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : jsString(name);
}

/** `idempotency-key` → `Idempotency-Key`: how a declared header is shown to readers. */
export function headerName(name: string): string {
  return name.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}

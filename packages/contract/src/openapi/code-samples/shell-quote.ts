/** One shell word, single-quoted so nothing inside it is expanded. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

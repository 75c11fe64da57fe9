/** An instant as the API writes it: ISO 8601 in UTC, without milliseconds when there are none. */
export function toTimestamp(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

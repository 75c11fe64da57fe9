import { constants } from 'node:os';

/** How a process ended, from its exit status (128 + the signal's number for a signal). */
export function exitDescription(code: number | null): string {
  if (code === null) return 'exited';
  const signal = Object.entries(constants.signals).find(([, number]) => number === code - 128);
  return signal ? `was killed by ${signal[0]} (status ${code})` : `exited with status ${code}`;
}

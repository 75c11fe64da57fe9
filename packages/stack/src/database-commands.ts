import type { ServiceProcess } from './service-process.js';

/** Collections a service writes about itself on a timer, whatever it is asked. */
const HOUSEKEEPING = ['process_lease'];

/**
 * The database commands the process has sent so far, by `"<command> <collection>"` (e.g. `"find
 * pets"`), counted by the driver's command monitoring and read from its metrics
 * (`db_client_operation_duration_seconds_count`); its housekeeping (the single-process lease's
 * heartbeat) only when asked.
 */
export async function databaseCommands(
  process: ServiceProcess,
  { housekeeping = false } = {},
): Promise<Map<string, number>> {
  if (!process.metricsUrl) throw new Error(`[stack] ${process.name} serves no metrics`);
  const text = await (await fetch(process.metricsUrl)).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('db_client_operation_duration_seconds_count{')) continue;
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '';
    const collection = label('db_collection_name');
    if (HOUSEKEEPING.includes(collection) && !housekeeping) continue;
    const key = `${label('db_operation_name')} ${collection}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.split(' ').at(-1)));
  }
  return counts;
}

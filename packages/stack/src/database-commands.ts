import type { ServiceProcess } from './service-process.js';

/** By `"<command> <collection>"` (e.g. `"find pets"`), from the process's metrics. */
export async function databaseCommands(
  process: ServiceProcess,
): Promise<Map<string, number>> {
  if (!process.metricsUrl)
    throw new Error(`[stack] ${process.name} serves no metrics`);
  const text = await (await fetch(process.metricsUrl)).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('db_client_operation_duration_seconds_count{'))
      continue;
    const label = (name: string) =>
      new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '';
    const key = `${label('db_operation_name')} ${label('db_collection_name')}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.split(' ').at(-1)));
  }
  return counts;
}

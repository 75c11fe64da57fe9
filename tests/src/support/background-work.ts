import { databaseNames, type DatabaseReader } from './databases.js';

/**
 * What the stack still has to do in the background, counted in its databases: events not yet
 * sent to a gateway, status pushes the store owes pets, messages not yet delivered, and webhook
 * deliveries still pending. All 0: the stack is settled.
 */
export interface BackgroundWork {
  events: number;
  statusPushes: number;
  messages: number;
  webhookDeliveries: number;
}

export async function backgroundWork(
  reader: DatabaseReader,
): Promise<BackgroundWork> {
  const gateway = reader.db(databaseNames.gateway);
  const { pushes, events } = await reader.pendingWork();
  return {
    events,
    statusPushes: pushes,
    messages: await gateway
      .collection('messages')
      .countDocuments({ status: { $in: ['queued', 'delivering'] } }),
    webhookDeliveries: await gateway
      .collection('webhook_deliveries')
      .countDocuments({ status: 'pending' }),
  };
}

/** The background work left, as a list of what is not done (empty once settled). */
export async function unfinishedWork(
  reader: DatabaseReader,
): Promise<string[]> {
  const work = await backgroundWork(reader);
  return Object.entries(work)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind}: ${count}`);
}

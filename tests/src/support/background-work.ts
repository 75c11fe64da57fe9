import { databaseNames, type DatabaseReader } from './databases.js';

/**
 * What the stack still has to do in the background, counted in its databases: events not yet
 * handed to a gateway, status pushes the store owes pets, stock held by orders not yet known to
 * be stored, closings (cancels, completions) whose stock change the sweeper has not yet seen to,
 * messages not yet delivered, and webhook deliveries still pending. All 0: the stack is settled.
 */
export interface BackgroundWork {
  events: number;
  statusPushes: number;
  stockHolds: number;
  owedClosings: number;
  messages: number;
  webhookDeliveries: number;
}

export async function backgroundWork(reader: DatabaseReader): Promise<BackgroundWork> {
  const store = reader.db(databaseNames.store);
  const gateway = reader.db(databaseNames.gateway);
  const { pushes, events } = await reader.pendingWork();
  return {
    events,
    statusPushes: pushes,
    stockHolds: await store.collection('inventory').countDocuments({ heldCount: { $gt: 0 } }),
    owedClosings: await store.collection('orders').countDocuments({ stockOwed: { $exists: true } }),
    messages: await gateway
      .collection('messages')
      .countDocuments({ status: { $in: ['queued', 'delivering'] } }),
    webhookDeliveries: await gateway
      .collection('webhook_deliveries')
      .countDocuments({ status: 'pending' }),
  };
}

/** The background work left, as a list of what is not done (empty once settled). */
export async function unfinishedWork(reader: DatabaseReader): Promise<string[]> {
  const work = await backgroundWork(reader);
  return Object.entries(work)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind}: ${count}`);
}

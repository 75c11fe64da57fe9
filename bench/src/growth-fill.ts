import { setTimeout as sleep } from 'node:timers/promises';
import type { Stack } from '@petstore/stack';
import type { Db, Document } from 'mongodb';
import { addCounts, sendBounded, type BoundedRequest, type BoundedRun } from './bounded-load.js';
import { createPet, setStock } from './fixtures.js';

/** Clients placing the orders that fill the store. */
const FILL_CLIENTS = 32;
/** The longest one fill may take; what it did not place by then is reported, not waited for. */
const FILL_SECONDS = 1_200;
/** Rounds of one fill: the first places what is missing, the others make up for failures. */
const FILL_ROUNDS = 5;
/** Documents written per `insertMany`. */
const BATCH = 1_000;
/** The stock each of the copied pets has. */
const COPIED_STOCK = 10;

/** A collection of documents keyed by a numeric id, as the pets' and stock collections are. */
const byId = (db: Db, name: string) => db.collection<Document & { _id: number }>(name);

/** `POST /v1/store/orders` for one of the pet, with `apiKey`. */
export function orderRequest(petId: number, apiKey: string): BoundedRequest {
  return {
    path: '/v1/store/orders',
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ petId, quantity: 1 }),
  };
}

/**
 * Orders stored in the store's database, cancelled ones included; not the tombstones the store
 * leaves under the id of an order whose placing failed.
 */
export function storedOrders(store: Db): Promise<number> {
  return store.collection('orders').countDocuments({ aborted: { $ne: true } });
}

/** What filling placed, in how long, and what failed (not retried, but made up for). */
export type Fill = Omit<BoundedRun, 'latenciesMs'>;

/**
 * Places orders through the gateway as the admin, on `petId`, until the store holds `orders`:
 * the missing count, then again what failed, at most `FILL_ROUNDS` times and `FILL_SECONDS` in
 * all.
 */
export async function fillOrders(
  stack: Stack,
  store: Db,
  petId: number,
  orders: number,
): Promise<Fill> {
  const request = orderRequest(petId, stack.adminApiKey);
  const deadline = Date.now() + FILL_SECONDS * 1000;
  const fill: Fill = { ok: 0, failed: {}, seconds: 0 };
  for (let round = 0; round < FILL_ROUNDS; round++) {
    const missing = orders - (await storedOrders(store));
    const seconds = (deadline - Date.now()) / 1000;
    if (missing <= 0 || seconds <= 0) break;
    const run = await sendBounded(
      stack.url,
      FILL_CLIENTS,
      { count: missing, seconds },
      () => request,
    );
    fill.ok += run.ok;
    fill.seconds += run.seconds;
    addCounts(fill.failed, run.failed);
  }
  return fill;
}

/**
 * Adds `count` pets, each with a stock of `COPIED_STOCK`, by writing into the databases with the
 * driver copies of what the services themselves stored for one pet made through the gateway: its
 * pets document, its stock entry and its status-push entry, once every background step (the
 * event handed to the gateway, the status pushed to pets) was done. The ids are taken from the
 * pets service's own counter, as it takes them, and the category counts its new pets, as a pet
 * made through the API moves it. Through the API, 50 000 pets and their stock take more than ten
 * minutes on 2 cores (about 200 pets and 80 stock updates per second); this takes seconds and
 * leaves the same documents.
 */
export async function copyPets(
  stack: Stack,
  { pets, store }: { pets: Db; store: Db },
  categoryId: number,
  count: number,
): Promise<void> {
  const templateId = await createPet(stack, categoryId, 'Copied pet');
  await setStock(stack, templateId, COPIED_STOCK);
  await settled(store, templateId);
  const copied = [byId(pets, 'pets'), byId(store, 'inventory'), byId(store, 'outbox')];
  const templates = await Promise.all(
    copied.map(async (collection) => ({
      collection,
      template: await collection.findOne({ _id: templateId }),
    })),
  );
  // Taken as the pets service takes an id (one `$inc` of its counter), `count` at once.
  const before = await pets
    .collection<{ _id: string; value: number }>('counters')
    .findOneAndUpdate({ _id: 'pets' }, { $inc: { value: count } }, { returnDocument: 'before' });
  if (!before) throw new Error('[bench] the pets service has no id counter');
  await byId(pets, 'categories').updateOne({ _id: categoryId }, { $inc: { revision: count } });
  for (let first = before.value + 1; first <= before.value + count; first += BATCH) {
    const ids = Array.from(
      { length: Math.min(BATCH, before.value + count - first + 1) },
      (_, index) => first + index,
    );
    for (const { collection, template } of templates) {
      if (template) await collection.insertMany(ids.map((_id) => ({ ...template, _id })));
    }
  }
}

/**
 * Waits (at most 30 s) until the stock entry of `petId` carries no event for the gateway and no
 * status push is owed for it: what the copies must look like.
 */
async function settled(store: Db, petId: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const owed =
      (await byId(store, 'inventory').countDocuments({
        _id: petId,
        pendingEventCount: { $gt: 0 },
      })) + (await byId(store, 'outbox').countDocuments({ _id: petId, pending: true }));
    if (owed === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`[bench] the stock of pet ${petId} was not settled within 30 s`);
    }
    await sleep(100);
  }
}

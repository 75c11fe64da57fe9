import type { RecordedEvent } from '@petstore/contract';
import { EventReceiver, testInternalToken } from '@petstore/testkit';
import { test } from '@petstore/testkit/vitest';
import type { Collection, Db } from 'mongodb';
import { describe, expect } from 'vitest';
import { connectMongo } from '../mongo.js';
import { captureLogs } from '../test-support/captured-logs.js';
import type { Worker } from '../worker.js';
import { eventRelay, eventSender } from './event-relay.js';
import { eventSource, type EventSource } from './event-source.js';
import {
  newEventId,
  recordEvent,
  toRecordedEvent,
  withEvent,
  type PendingEvent,
  type WithPendingEvents,
} from './pending-events.js';

interface ThingDocument extends WithPendingEvents {
  _id: number;
  name: string;
  ownerId: string;
}

const internalToken = testInternalToken;

const it = test.extend<{
  things: Collection<ThingDocument>;
  receiver: EventReceiver<RecordedEvent>;
}>({
  things: async ({ mongo }, use) => {
    const client = await connectMongo(mongo.uri, { appName: 'service-kit-test' });
    const db: Db = client.db(mongo.databaseName('events'));
    await use(db.collection<ThingDocument>('things'));
    await client.close();
  },
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from it
  receiver: async ({}, use) => {
    await using receiver = await new EventReceiver<RecordedEvent>().start();
    await use(receiver);
  },
});

/** The events of `things`; the thing as the event shows it is its name. */
function thingEvents(things: Collection<ThingDocument>): EventSource<ThingDocument> {
  return eventSource({
    collection: things,
    toData: (thing, event) => event.data ?? { id: thing._id, name: thing.name },
    accountOf: (thing) => thing.ownerId,
  });
}

/** A relay of `things` to `gatewayUrls`, started. */
function startRelay(
  things: Collection<ThingDocument>,
  gatewayUrls: string[],
  logger = captureLogs().logger,
  quietMs = 50,
  source = thingEvents(things),
): Worker {
  const relay = eventRelay({
    logger,
    sources: [source],
    send: eventSender({ baseUrls: gatewayUrls, internalToken }),
    idleMs: 20,
    quietMs,
  });
  relay.start();
  return relay;
}

const at = new Date('2026-05-01T10:00:00.000Z');

/** A thing named Rex of jane's, carrying `event` as recorded at `at`. */
function rex(id: number, event: Omit<PendingEvent, 'timestamp'>): ThingDocument {
  return {
    _id: id,
    name: 'Rex',
    ownerId: 'acct_jane1',
    ...withEvent(newEventId(), { timestamp: at, ...event }),
  };
}

/** Inserts thing `id` with an order.created event; returns how to hand it over as `data` shows it. */
async function write(things: Collection<ThingDocument>, id: number) {
  const eventId = newEventId();
  const event: PendingEvent = { type: 'order.created', timestamp: at, data: { id } };
  await things.insertOne({
    _id: id,
    name: 'Rex',
    ownerId: 'acct_jane1',
    ...withEvent(eventId, event),
  });
  return (source: EventSource<ThingDocument>, data: Record<string, unknown>) =>
    source.written(id, [toRecordedEvent(eventId, event, data)]);
}

/** Inserts thing `id` with an order.created event, and hands that event over as `data` shows it. */
async function writeAndHand(
  things: Collection<ThingDocument>,
  source: EventSource<ThingDocument>,
  id: number,
  data: Record<string, unknown>,
) {
  (await write(things, id))(source, data);
}

async function pendingOf(things: Collection<ThingDocument>, id: number) {
  const thing = await things.findOne({ _id: id });
  return { events: Object.keys(thing?.pendingEvents ?? {}), count: thing?.pendingEventCount };
}

/** Waits until the document `id` carries no event any more. */
function handedOver(things: Collection<ThingDocument>, id: number, timeout?: number) {
  return expect.poll(() => pendingOf(things, id), { timeout }).toEqual({ events: [], count: 0 });
}

describe('eventRelay', () => {
  it('hands the events documents carry to the gateway, then takes them off', async ({
    things,
    receiver,
  }) => {
    const data = { id: 1, name: 'as created' };
    await things.insertOne(rex(1, { type: 'order.created', accountId: 'acct_john1', data }));
    const later = recordEvent({ type: 'order.completed', timestamp: new Date(at.getTime() + 1) });
    await things.updateOne({ _id: 1 }, { $set: { name: 'Max', ...later.$set }, $inc: later.$inc });
    const [created] = (await pendingOf(things, 1)).events;
    expect(await pendingOf(things, 1)).toEqual({ events: [created, later.id], count: 2 });

    const relay = startRelay(things, [receiver.url]);
    await handedOver(things, 1);
    await relay.stop();
    expect(receiver.batches).toEqual([
      {
        token: internalToken,
        status: 202,
        events: [
          {
            id: created,
            type: 'order.created',
            timestamp: '2026-05-01T10:00:00.000Z',
            data: { id: 1, name: 'as created' },
            accountId: 'acct_john1',
          },
          {
            id: later.id,
            type: 'order.completed',
            timestamp: '2026-05-01T10:00:00.001Z',
            data: { id: 1, name: 'Max' },
            accountId: 'acct_jane1',
          },
        ],
      },
    ]);
    expect(created).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('finds events no write woke it for, on its own', async ({ things, receiver }) => {
    const relay = startRelay(things, [receiver.url]);
    await expect.poll(() => receiver.batches.length).toBe(0);
    await things.insertOne(rex(1, { type: 'order.created', data: { id: 1 } }));
    await handedOver(things, 1, 10_000);
    await relay.stop();
    expect(receiver.accepted()).toMatchObject([{ type: 'order.created', data: { id: 1 } }]);
  });

  it('sends the events writes hand it in one request, without reading their documents', async ({
    things,
    receiver,
  }) => {
    const created = (id: number) => rex(id, { type: 'order.created', data: { id } });
    // It looks through the collection at start (finding 3), then not for an hour.
    await things.insertOne(created(3));
    const source = thingEvents(things);
    const relay = startRelay(things, [receiver.url], captureLogs().logger, 3_600_000, source);
    await handedOver(things, 3);
    await things.insertOne(created(1));
    // Both written first, then handed over together: within the linger however slow the inserts.
    const handTwo = await write(things, 2);
    const handFour = await write(things, 4);
    // What a write hands over is what is sent: `handed` is in no document.
    handTwo(source, { id: 2, handed: true });
    handFour(source, { id: 4, handed: true });
    await handedOver(things, 2);
    await handedOver(things, 4);
    await relay.stop();
    expect(receiver.batches.map(({ events }) => events.map(({ data }) => data))).toEqual([
      [{ id: 3 }],
      [
        { id: 2, handed: true },
        { id: 4, handed: true },
      ],
    ]);
    expect((await pendingOf(things, 1)).count).toBe(1);
  });

  it('sends a handed event once when its look through read it first', async ({
    things,
    receiver,
  }) => {
    const source = thingEvents(things);
    const pending = source.pending.bind(source);
    // The write lands as the look through at start begins, and hands its event over only once the
    // look through has read it.
    let lookedThrough = false;
    source.pending = async (limit) => {
      if (lookedThrough) return pending(limit);
      lookedThrough = true;
      const hand = await write(things, 1);
      const read = await pending(limit);
      hand(source, { id: 1 });
      return read;
    };
    const relay = startRelay(things, [receiver.url], captureLogs().logger, 3_600_000, source);
    await handedOver(things, 1);
    await relay.stop();
    expect(receiver.accepted()).toMatchObject([{ type: 'order.created', data: { id: 1 } }]);
  });

  it('looks for the handed events the gateway refused, until it takes them', async ({
    things,
    receiver,
  }) => {
    // Once its look through at start is done, it does not look again for an hour unless owed.
    await things.insertOne(rex(2, { type: 'order.created', data: { id: 2 } }));
    const source = thingEvents(things);
    const logs = captureLogs();
    const relay = startRelay(things, [receiver.url], logs.logger, 3_600_000, source);
    await handedOver(things, 2);
    receiver.status = 500;
    await writeAndHand(things, source, 1, { id: 1 });
    await expect.poll(() => receiver.batches.length).toBeGreaterThanOrEqual(2);
    expect((await pendingOf(things, 1)).count).toBe(1);
    expect(logs.text()).toContain('events a write handed over were not sent');

    receiver.status = 202;
    await handedOver(things, 1);
    await relay.stop();
    expect(receiver.accepted()).toMatchObject([{ data: { id: 2 } }, { data: { id: 1 } }]);
  });

  it('keeps a document’s events in order when sending one failed', async ({ things, receiver }) => {
    receiver.status = 503;
    const source = thingEvents(things);
    // It looks again a second after a failure: long after the next write's hand-over.
    const relay = eventRelay({
      logger: captureLogs().logger,
      sources: [source],
      send: eventSender({ baseUrls: [receiver.url], internalToken }),
      idleMs: 1_000,
      quietMs: 3_600_000,
    });
    relay.start();
    await writeAndHand(things, source, 1, { id: 1, name: 'Rex' });
    // Refused twice: handed over, then looked for.
    await expect.poll(() => receiver.batches.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    receiver.status = 202;
    const completed: PendingEvent = { type: 'order.completed', timestamp: new Date(+at + 1) };
    const later = recordEvent(completed);
    await things.updateOne({ _id: 1 }, { $set: later.$set, $inc: later.$inc });
    source.written(1, [toRecordedEvent(later.id, completed, { id: 1, name: 'Max' })]);
    await handedOver(things, 1, 10_000);
    await relay.stop();
    expect(receiver.accepted().map(({ type }) => type)).toEqual([
      'order.created',
      'order.completed',
    ]);
  });

  it('keeps the events the gateway refuses until it takes them', async ({ things, receiver }) => {
    receiver.status = 500;
    await things.insertOne(rex(1, { type: 'inventory.updated', data: { petId: 1 } }));
    const relay = startRelay(things, [receiver.url]);
    await expect.poll(() => receiver.batches.length).toBeGreaterThanOrEqual(2);
    expect((await pendingOf(things, 1)).count).toBe(1);

    receiver.status = 202;
    await handedOver(things, 1);
    await relay.stop();
    expect(receiver.accepted()).toMatchObject([{ type: 'inventory.updated', data: { petId: 1 } }]);
  });

  it('keeps the events while no gateway answers, trying each', async ({ things, receiver }) => {
    const url = receiver.url;
    await receiver.stop();
    await things.insertOne(rex(1, { type: 'pet.status_changed', data: { id: 1 } }));
    const down = new EventReceiver<RecordedEvent>();
    await down.start();
    const downUrl = down.url;
    await down.stop();
    const logs = captureLogs();
    const relay = startRelay(things, [downUrl, url], logs.logger);
    const failures = () => logs.text().split('no gateway took 1 events').length - 1;
    await expect.poll(failures).toBeGreaterThanOrEqual(2);
    expect((await pendingOf(things, 1)).count).toBe(1);

    await receiver.start();
    await handedOver(things, 1);
    await relay.stop();
    expect(receiver.accepted()).toMatchObject([{ type: 'pet.status_changed' }]);
  });

  it('hands over at most 100 events at once, each once', async ({ things, receiver }) => {
    await things.insertOne({ _id: 1, name: 'Rex', ownerId: 'acct_jane1' });
    for (let index = 0; index < 150; index++) {
      const event = recordEvent({
        type: 'inventory.updated',
        timestamp: new Date(at.getTime() + index),
        data: { quantity: index },
      });
      await things.updateOne({ _id: 1 }, { $set: event.$set, $inc: event.$inc });
    }
    const relay = startRelay(things, [receiver.url]);
    await handedOver(things, 1);
    await relay.stop();
    expect(receiver.batches.map(({ events }) => events.length)).toEqual([100, 50]);
    // Oldest first.
    expect(receiver.accepted().map(({ data }) => data.quantity)).toEqual(
      Array.from({ length: 150 }, (_, index) => index),
    );
  });
});

describe('two relays at once (two replicas)', () => {
  it('hand every event over at least once, and take each off once', async ({
    things,
    receiver,
  }) => {
    for (let id = 1; id <= 30; id++) {
      await things.insertOne(rex(id, { type: 'order.created', data: { id } }));
      const completed = recordEvent({ type: 'order.completed', timestamp: at });
      await things.updateOne({ _id: id }, { $set: completed.$set, $inc: completed.$inc });
    }
    const relays = [startRelay(things, [receiver.url]), startRelay(things, [receiver.url])];
    await expect
      .poll(() => things.countDocuments({ pendingEventCount: { $ne: 0 } }), { timeout: 10_000 })
      .toBe(0);
    await Promise.all(relays.map((relay) => relay.stop()));
    expect(await things.countDocuments({ pendingEventCount: 0, pendingEvents: {} })).toBe(30);
    expect(new Set(receiver.accepted().map(({ id }) => id)).size).toBe(60);
  });
});

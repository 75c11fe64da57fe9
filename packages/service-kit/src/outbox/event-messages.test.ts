import type { RecordedEvent } from '@petstore/contract';
import {
  EventReceiver,
  testInternalToken as internalToken,
} from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { eventMessages, eventsSender, newEvent } from './event-messages.js';
import type { OutboxMessage } from './outbox.js';

/** Events as the relay hands them to a sender. */
function claimed(events: RecordedEvent[]): OutboxMessage[] {
  return eventMessages(events).map(({ id = '', topic, payload }) => {
    const now = new Date();
    return { _id: id, topic, payload, createdAt: now, dueAt: now, attempts: 0 };
  });
}

describe('newEvent', () => {
  it('is stamped now, in UTC, under a time-ordered id, with its owner when it has one', () => {
    const event = newEvent('order.created', { id: 1 }, 'acct_a');
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/) as string,
      type: 'order.created',
      timestamp: expect.stringMatching(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
      ) as string,
      data: { id: 1 },
      accountId: 'acct_a',
    });
    expect(newEvent('inventory.updated', {})).not.toHaveProperty('accountId');
    expect(newEvent('order.created', {}).id > event.id).toBe(true);
  });
});

describe('eventsSender', () => {
  it('tries each gateway in turn until one takes the events', async () => {
    await using up = await new EventReceiver<RecordedEvent>().start();
    const down = await new EventReceiver<RecordedEvent>().start();
    const downUrl = down.url;
    await down.stop();
    const send = eventsSender({ baseUrls: [downUrl, up.url], internalToken });
    const events = [newEvent('pet.status_changed', { id: 1 })];
    await send(claimed(events));
    expect(up.accepted()).toEqual(events);
  });

  it('fails when no gateway takes them, so that the relay keeps them', async () => {
    await using refusing = await new EventReceiver<RecordedEvent>().start();
    refusing.status = 503;
    const send = eventsSender({ baseUrls: [refusing.url], internalToken });
    await expect(
      send(claimed([newEvent('order.created', { id: 2 })])),
    ).rejects.toThrow('no gateway took 1 events');
  });
});

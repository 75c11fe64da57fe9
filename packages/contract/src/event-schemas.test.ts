import { describe, expect, it } from 'vitest';
import { customerEventTypes, RecordedEventSchema } from './event-schemas.js';
import { WebhookEventSchema } from './webhooks.js';

const order = {
  id: 7,
  petId: 1,
  quantity: 2,
  shipDate: '2026-12-01T10:00:00Z',
  complete: false,
};

describe('webhook events', () => {
  it('parse a delivery body by its type, and refuse data of another resource', () => {
    const event = {
      id: 'evt_abc',
      type: 'order.created',
      timestamp: '2026-12-01T10:00:00Z',
    };
    expect(WebhookEventSchema.parse({ ...event, data: order })).toEqual({
      ...event,
      data: order,
    });
    const stock = { petId: 1, quantity: 0, status: 'sold' };
    expect(
      WebhookEventSchema.safeParse({
        ...event,
        type: 'inventory.updated',
        data: stock,
      }).success,
    ).toBe(true);
    expect(
      WebhookEventSchema.safeParse({
        ...event,
        type: 'pet.status_changed',
        data: stock,
      }).success,
    ).toBe(false);
  });

  it('let customers hear only of their orders and messages', () => {
    expect([...customerEventTypes].sort()).toEqual(
      [
        'message.delivered',
        'order.cancelled',
        'order.completed',
        'order.created',
      ].sort(),
    );
  });

  it('take an owner only as a non-empty account id', () => {
    const event = {
      id: 'evt_abc',
      type: 'order.created',
      timestamp: '2026-12-01T10:00:00Z',
      data: order,
    };
    expect(
      RecordedEventSchema.safeParse({ ...event, accountId: 'acct_1' }).success,
    ).toBe(true);
    expect(
      RecordedEventSchema.safeParse({ ...event, accountId: '' }).success,
    ).toBe(false);
  });
});

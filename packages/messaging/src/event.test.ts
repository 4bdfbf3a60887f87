// Unit tests of the event envelope: what createEvent fills in and what parseEvent refuses.
import { describe, expect, it } from 'vitest';
import { createEvent, parseEvent } from './event.js';

describe('createEvent', () => {
  it('when only a type and payload are given, then it fills a uuid id, version 1 and the current time, without a tenant', () => {
    const before = Date.now();

    const event = createEvent('push.registered', { token: 'abc' });

    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event.type).toBe('push.registered');
    expect(event.version).toBe(1);
    expect(event.payload).toEqual({ token: 'abc' });
    expect(Date.parse(event.occurred_at)).toBeGreaterThanOrEqual(before - 1);
    expect(event.occurred_at).toMatch(/Z$/);
    expect(event).not.toHaveProperty('tenant_id');
  });

  it('when options are given, then tenant, version and id are taken from them', () => {
    const event = createEvent('account.deleted', { user_id: 1 }, { tenantId: 0, version: 2, id: 'fixed-id' });

    expect(event).toMatchObject({ id: 'fixed-id', version: 2, tenant_id: 0 });
  });

  it('when called twice, then the ids differ', () => {
    expect(createEvent('a.b', {}).id).not.toBe(createEvent('a.b', {}).id);
  });

  it('when the type is empty, then it throws', () => {
    expect(() => createEvent('', {})).toThrow(/type/);
  });
});

describe('parseEvent', () => {
  it('when given a serialized event, then it returns the same event', () => {
    const event = createEvent('help.requested', { subject: 'x' }, { tenantId: 2 });

    expect(parseEvent(Buffer.from(JSON.stringify(event)))).toEqual({ event });
  });

  it.each([
    ['not JSON', '{', 'body is not JSON'],
    ['an array', '[]', 'body is not a JSON object'],
    ['without an id', '{"type":"a.b"}', 'event has no id'],
    ['without a type', '{"id":"1"}', 'event has no type'],
  ])('when the body is %s, then it is malformed', (_what, body, error) => {
    expect(parseEvent(Buffer.from(body))).toEqual({ error });
  });
});

import { describe, expect, it } from 'vitest';
import { accountDeletionOf } from './account-deleted.js';
import { PoisonMessageError } from './consumer.js';
import { createEvent } from './event.js';

describe('accountDeletionOf (the one user_id rule)', () => {
  it('when user_id is a positive integer, then it is the user, with the e-mail when there is one', () => {
    expect(accountDeletionOf(createEvent('account.deleted', { user_id: 7, email: 'a@example.com' }))).toEqual({ userId: 7, email: 'a@example.com' });
    expect(accountDeletionOf(createEvent('account.deleted', { user_id: Number.MAX_SAFE_INTEGER }))).toEqual({
      userId: Number.MAX_SAFE_INTEGER,
      email: null,
    });
  });

  it('when user_id is zero, negative, fractional, unsafe, a string or missing, then the message is poison', () => {
    for (const payload of [{ user_id: 0 }, { user_id: -1 }, { user_id: 1.5 }, { user_id: 2 ** 53 }, { user_id: '7' }, {}, null]) {
      expect(() => accountDeletionOf(createEvent('account.deleted', payload))).toThrow(PoisonMessageError);
    }
  });
});

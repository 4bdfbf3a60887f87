// The EventSink of the use cases: every event goes through the outbox, so it
// is recorded in identity's database before the request is answered and
// published by the relay whenever the broker is reachable.
import { createEvent, type Outbox } from '@folio/messaging';
import { isDuplicateKey } from '../data/index.js';
import type { EventSink } from '../domain/ports.js';

export class OutboxEventSink implements EventSink {
  constructor(private readonly outbox: Outbox) {}

  async publish<P>(type: string, payload: P, options: { tenantId?: number; id?: string } = {}): Promise<void> {
    try {
      await this.outbox.add(createEvent(type, payload, options));
    } catch (error) {
      // An event with a derived id that is already in the outbox was recorded by an earlier attempt.
      if (options.id && isDuplicateKey(error)) return;
      throw error;
    }
  }
}

// Domain events leave through the outbox: written to commerce's database
// before the use case answers, relayed to `commerce.events` by the outbox.
import { createEvent, type Outbox } from '@folio/messaging';
import type { EventSink } from '../domain/ports.js';

export class OutboxEventSink implements EventSink {
  constructor(private readonly outbox: Outbox) {}

  async publish<P>(type: string, payload: P, options: { id: string; tenantId?: number }): Promise<void> {
    await this.outbox.add(createEvent(type, payload, options));
  }
}

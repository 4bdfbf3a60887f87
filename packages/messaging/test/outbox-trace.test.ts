// The outbox keeps the trace of the request that wrote an event, so the relay
// publishes it in that trace however much later it runs: a help request's
// trace goes on to the consumer that sends the e-mail (amqplib's
// instrumentation carries it from the publish to the consumer in the headers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, testInfra, uniqueName, waitFor } from '@folio/testing';
import { inTraceOf } from '@folio/telemetry';
import { startInMemoryTracing } from '@folio/telemetry/tracing';
import { Broker, createEvent, Outbox } from '../src/index.js';
import { brokerAdmin, recordingLogger, type BrokerAdmin } from './support.js';

const { logger } = recordingLogger();
const exchange = uniqueName('outbox_trace.events');
let tracing: ReturnType<typeof startInMemoryTracing>;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: BrokerAdmin;
let broker: Broker;

beforeAll(async () => {
  tracing = startInMemoryTracing('messaging-test');
  db = await freshDatabase('messaging_outbox_trace');
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'outbox-trace-test' });
});

afterAll(async () => {
  await broker?.close();
  await db?.drop();
  await admin?.cleanUp({ exchanges: [exchange] });
  await admin?.close();
  await tracing?.shutdown();
});

const publishedRow = (eventId: string) =>
  waitFor(
    async () => {
      const row = await db.connection.collection('outbox').findOne({ event_id: eventId });
      return row?.published_at ? row : undefined;
    },
    { what: 'the row to be published' },
  );

describe('Outbox and traces', () => {
  it('when an event is added inside a request trace, then its row keeps the trace and the relay publishes it as a child of that request', async () => {
    const outbox = new Outbox(db.connection, broker, { exchange, logger });
    const event = createEvent('help.requested', { subject: 'a page is missing' }, { tenantId: 1 });

    const request = await inTraceOf(undefined, 'POST /api/v2/help', async (span) => {
      await outbox.add(event);
      return span.spanContext();
    });

    const row = await publishedRow(event.id);
    expect(row.trace).toEqual({ traceparent: `00-${request.traceId}-${request.spanId}-01` });
    const publish = (await tracing.spans()).find((span) => span.name === 'outbox publish help.requested');
    expect(publish?.spanContext().traceId).toBe(request.traceId);
    expect(publish?.parentSpanContext?.spanId).toBe(request.spanId);
  });

  it('when an event is added outside any trace, then its row carries no trace and is still published', async () => {
    const outbox = new Outbox(db.connection, broker, { exchange, logger });
    const event = createEvent('help.requested', { subject: 'no trace' }, { tenantId: 1 });

    await outbox.add(event);

    expect((await publishedRow(event.id)).trace).toBeUndefined();
  });
});

// The local `expand` reading the surrounding passages from the reader's text
// index over gRPC (SearchIssueText to find the selection's section,
// ListIssueTextContent for its page), served here by a stand-in reader; its
// fallback when the reader cannot say; and the erasure of a deleted account's
// AI responses on identity's account.deleted event.
import amqp from 'amqplib';
import { startGrpcServer, type GrpcServer, type ServiceHandlers } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { createEvent } from '@folio/messaging';
import { reader as readerProto } from '@folio/proto';
import { testInfra, unimplementedHandlers, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchQueryOf, windowAround } from '../src/engines/reader-passages.js';
import { newReader, startTestIntegrations, type TestIntegrations } from './support.js';

const PAGE_7 = [
  'The harbour lay quiet before the storm.',
  'The lighthouse keeper climbed the stairs, as he did every evening.',
  'Fishermen tied their boats to the old pier.',
  'By midnight the wind had turned.',
];

async function startReaderStandIn(withIndex: boolean) {
  const searches: readerProto.SearchIssueTextRequest[] = [];
  const pages: readerProto.ListIssueTextContentRequest[] = [];
  const handlers: ServiceHandlers<typeof readerProto.ReaderServiceService> = withIndex
    ? {
        ...unimplementedHandlers(readerProto.ReaderServiceService, 'never'),
        async searchIssueText(request: readerProto.SearchIssueTextRequest) {
          searches.push(request);
          const excerpt = { text: 'lighthouse keeper', matches: [{ start: 0, length: 10 }], startsMidSection: false, endsMidSection: true };
          return {
            hits: [
              { location: 'page_7_section_2', snippet: '<b>lighthouse</b> keeper', queryWords: ['lighthouse'], page: 7, section: 2, pageOffset: 0, excerpt },
            ],
          };
        },
        async listIssueTextContent(request: readerProto.ListIssueTextContentRequest) {
          pages.push(request);
          // Out of order on purpose: the source puts sections in reading order.
          return {
            records: [3, 1, 4, 2].map((section) => ({
              id: section,
              issueId: request.issueId,
              page: 7,
              section,
              location: `page_7_section_${section}`,
              text: PAGE_7[section - 1]!,
            })),
          };
        },
      }
    : unimplementedHandlers(readerProto.ReaderServiceService, 'a later reader');
  const server: GrpcServer = await startGrpcServer({
    logger: createLogger({ service: 'reader-stand-in', level: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    services: [{ name: 'svc.reader.v1.ReaderService', definition: readerProto.ReaderServiceService, handlers }],
  });
  return { address: `127.0.0.1:${server.port}`, searches, pages, stop: () => server.shutdown(1_000) };
}

describe('expand with the reader passages', () => {
  const reader = newReader();
  const text = 'The lighthouse keeper climbed the stairs.';

  it('when the reader finds the selection, then expand answers with the sections around it, in reading order', async () => {
    const readerService = await startReaderStandIn(true);
    const app = await startTestIntegrations({ READER_ADDR: readerService.address });
    try {
      const answer = await app.client.runAiAction({ caller: reader.caller(), action: 'expand', text: reader.encrypt(text), lang: 'en' });
      expect(answer.text).toBe(PAGE_7.slice(0, 3).join('\n\n'));
      expect(readerService.searches).toEqual([
        {
          // The reader session the gateway verified: the search runs in it, within its preview share.
          session: { sessionId: '7', tenantId: 1, userId: reader.caller().userId, issueId: 42, preview: false, previewLimit: undefined },
          search: 'The lighthouse keeper climbed the stairs',
          issueId: 42,
        },
      ]);
      expect(readerService.pages).toEqual([{ storeTenantId: 1, issueId: 42, page: 7 }]);
    } finally {
      await app.stop();
      await readerService.stop();
    }
  });

  it('when the reader cannot say (RPCs not there), then expand falls back to the selection and its key terms', async () => {
    const readerService = await startReaderStandIn(false);
    const app = await startTestIntegrations({ READER_ADDR: readerService.address });
    try {
      const answer = await app.client.runAiAction({ caller: reader.caller(), action: 'expand', text: reader.encrypt(text), lang: 'en' });
      expect(answer.text.startsWith(text)).toBe(true);
      expect(answer.text).toMatch(/lighthouse: a tower/);
    } finally {
      await app.stop();
      await readerService.stop();
    }
  });

  it('when the selection is long, then the search uses its first words within 128 characters', () => {
    const query = searchQueryOf('word '.repeat(100))!;
    expect(query.length).toBeLessThanOrEqual(128);
    expect(searchQueryOf('a b')).toBeUndefined();
  });

  it('when the found section is at an end of the page, then the window shifts inside it', () => {
    expect(windowAround([1, 2, 3, 4, 5], 0, 3)).toEqual([1, 2, 3]);
    expect(windowAround([1, 2, 3, 4, 5], 4, 3)).toEqual([3, 4, 5]);
    expect(windowAround([1, 2, 3, 4, 5], 2, 3)).toEqual([2, 3, 4]);
    expect(windowAround([1, 2], 1, 3)).toEqual([1, 2]);
  });
});

describe('account erasure', () => {
  let app: TestIntegrations;
  beforeAll(async () => {
    app = await startTestIntegrations();
  });
  afterAll(() => app.stop());

  it("when identity publishes account.deleted, then the user's AI responses and ratings are erased and other users' stay", async () => {
    const leaving = newReader();
    const staying = newReader();
    const passage = 'The lighthouse stood on the rock. The keeper lit the lamp.';
    const gone = await app.client.runAiAction({ caller: leaving.caller(), action: 'summarize', text: leaving.encrypt(passage), lang: 'en' });
    await app.client.rateAiResponse({ caller: leaving.caller(), uuid: gone.uuid, positive: true });
    const kept = await app.client.runAiAction({ caller: staying.caller(), action: 'summarize', text: staying.encrypt(passage), lang: 'en' });

    const connection = await amqp.connect(testInfra().amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      await channel.assertExchange(app.config.IDENTITY_EVENTS_EXCHANGE, 'topic', { durable: true });
      const event = createEvent('account.deleted', { user_id: leaving.caller().userId, email: 'leaving@test.example.com' });
      channel.publish(app.config.IDENTITY_EVENTS_EXCHANGE, event.type, Buffer.from(JSON.stringify(event)), {
        persistent: true,
        contentType: 'application/json',
      });
      await channel.waitForConfirms();
      await channel.close();
    } finally {
      await connection.close();
    }

    await waitFor(async () => ((await app.db.collection('ai_responses').countDocuments({ user_id: leaving.caller().userId })) === 0 ? true : undefined), {
      what: 'the AI responses of the deleted account to be erased',
    });
    expect(await app.db.collection('ai_rating_claims').countDocuments({ user_id: leaving.caller().userId })).toBe(0);
    expect(await app.db.collection('ai_responses').findOne({ _id: kept.uuid as never })).not.toBeNull();
  });
});

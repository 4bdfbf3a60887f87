// What the messaging tests share: a logger whose lines can be read back, and
// a plain amqplib connection that inspects and cleans up the broker the way an
// operator would, independent of the code under test.
import amqp, { type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import type { Connection } from 'mongoose';
import { createLogger, type Logger } from '@folio/logger';
import { testInfra, waitFor } from '@folio/testing';

// The queues startConsumer declares for a queue (it, its `.retry` and its `.dead` queue), as the services' tests clean them up.
export { consumerQueues } from '@folio/testing';

export function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'messaging-test',
    level: 'debug',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, lines };
}

export interface BrokerAdmin {
  channel: Channel;
  /** The admin's own connection, for channels a test needs (say, with confirms). */
  connection: ChannelModel;
  /** Waits for the next message in a queue, acknowledged so it does not linger. */
  nextMessage(queue: string, timeoutMs?: number): Promise<GetMessage>;
  messageCount(queue: string): Promise<number>;
  inspect(queue: string): Promise<{ messageCount: number; consumerCount: number } | undefined>;
  /** Deletes the queues and exchanges a test file created. */
  cleanUp(names: { queues?: string[]; exchanges?: string[] }): Promise<void>;
  close(): Promise<void>;
}

export async function brokerAdmin(): Promise<BrokerAdmin> {
  const connection: ChannelModel = await amqp.connect(testInfra().amqpUrl);
  const channel = await connection.createChannel();
  /** A queue's counts, or undefined when it does not exist (which closes the channel asking, hence a throwaway one). */
  const inspect = async (queue: string) => {
    const probe = await connection.createChannel();
    probe.on('error', () => {});
    try {
      return await probe.checkQueue(queue);
    } catch {
      return undefined;
    } finally {
      await probe.close().catch(() => {});
    }
  };
  return {
    channel,
    connection,
    nextMessage: (queue, timeoutMs = 10_000) =>
      waitFor(
        async () => {
          const message = await channel.get(queue);
          if (!message) return undefined;
          channel.ack(message);
          return message;
        },
        { timeoutMs, what: `a message in ${queue}` },
      ),
    messageCount: async (queue) => (await inspect(queue))?.messageCount ?? 0,
    inspect,
    cleanUp: async ({ queues = [], exchanges = [] }) => {
      // A channel of its own: a failed assertion may have closed the shared one.
      const cleaner = await connection.createChannel();
      for (const queue of queues) await cleaner.deleteQueue(queue);
      for (const exchange of exchanges) await cleaner.deleteExchange(exchange);
      await cleaner.close();
    },
    close: () => connection.close(),
  };
}

/**
 * FerretDB 1.x (the local stack's MongoDB wire protocol) runs findAndModify and
 * conditional updates without isolation, so concurrent claims can both win there.
 */
export async function isFerretDB(connection: Connection): Promise<boolean> {
  const info = await connection.db!.admin().command({ buildInfo: 1 });
  return 'ferretdbVersion' in info;
}

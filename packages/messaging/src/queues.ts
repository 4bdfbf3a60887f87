// The durable queues of a consumer are quorum queues: replicated by Raft over
// the RabbitMQ cluster's nodes (a node can be lost without losing messages),
// and supported by every broker we run, the local single-node one included
// (RabbitMQ >= 3.8; per-message TTL, which `<queue>.retry` relies on, >= 3.10).
// Broadcast queues stay classic: they are exclusive and auto-deleted, which a
// quorum queue cannot be.
//
// A queue that already exists as a classic queue (declared by an older
// version, e.g. on a developer's long-lived local broker) cannot be re-declared
// with another type (PRECONDITION_FAILED): it is then kept as it is, with a
// warning. To move it to quorum, drain it, delete it and restart the consumer.
import type { Options } from 'amqplib';
import type { Logger } from '@folio/logger';
import type { Broker } from './broker.js';

export const QUEUE_TYPE_ARGUMENT = 'x-queue-type';
export const QUORUM_QUEUE = 'quorum';

export interface QueueSpec {
  name: string;
  /** Arguments besides the queue type (dead-lettering of `<queue>.retry`). */
  arguments?: Record<string, unknown>;
}

/** Declares each queue as a durable quorum queue, keeping one that exists as classic. Returns the type each one has. */
export async function declareDurableQueues(broker: Broker, queues: QueueSpec[], logger: Logger): Promise<Record<string, 'quorum' | 'classic'>> {
  const types: Record<string, 'quorum' | 'classic'> = {};
  let channel = await broker.createChannel();
  channel.on('error', () => {}); // a refused declaration closes the channel; it is replaced below
  try {
    for (const queue of queues) {
      const quorum: Options.AssertQueue = { durable: true, arguments: { ...queue.arguments, [QUEUE_TYPE_ARGUMENT]: QUORUM_QUEUE } };
      try {
        await channel.assertQueue(queue.name, quorum);
        types[queue.name] = 'quorum';
        continue;
      } catch (error) {
        if (!isQueueTypeMismatch(error)) throw error;
      }
      channel = await broker.createChannel();
      channel.on('error', () => {});
      await channel.assertQueue(queue.name, { durable: true, ...(queue.arguments && { arguments: queue.arguments }) });
      types[queue.name] = 'classic';
      logger.warn({ declared_queue: queue.name }, 'queue exists as a classic queue and is kept so; drain and delete it to have it declared as a quorum queue');
    }
  } finally {
    await channel.close().catch(() => {});
  }
  return types;
}

/** RabbitMQ's answer to a declaration whose type differs from the existing queue's. */
function isQueueTypeMismatch(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 406 && typeof message === 'string' && message.includes(QUEUE_TYPE_ARGUMENT);
}

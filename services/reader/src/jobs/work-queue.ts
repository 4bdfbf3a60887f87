// The ingest work queue on RabbitMQ: one durable quorum queue that every
// reader replica consumes one job at a time (prefetch 1). A job is
// acknowledged only once it ended, so a replica that dies mid-job leaves it
// for another (or for itself after the restart): at least once, made
// idempotent by the job's record (domain/uploads.ts, IngestJobs).
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@folio/logger';
import { BrokerUnavailableError, type Broker } from '@folio/messaging';
import type { IngestQueue, JobRef } from '../domain/uploads.js';

const QUEUE_ARGUMENTS = { 'x-queue-type': 'quorum' };

export interface WorkQueueConsumer {
  /** Stops taking jobs; the job in hand is left unacknowledged (the broker hands it out again). */
  stop(): Promise<void>;
}

export class IngestWorkQueue implements IngestQueue {
  private publisher: Promise<ConfirmChannel> | undefined;

  constructor(
    private readonly broker: Broker,
    private readonly queue: string,
    private readonly logger: Logger,
  ) {}

  async enqueue(job: JobRef): Promise<void> {
    const channel = await this.publishChannel();
    const body = Buffer.from(JSON.stringify({ tenant_id: job.tenantId, issue_id: job.issueId, job_id: job.jobId }));
    await new Promise<void>((resolve, reject) => {
      channel.sendToQueue(this.queue, body, { persistent: true, contentType: 'application/json', messageId: job.jobId }, (error: unknown) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
      );
    });
  }

  /** Runs `handle` for each job, one at a time; 'retry' puts the job back after `retryDelayMs`. */
  consume(handle: (job: JobRef) => Promise<'done' | 'retry'>, options: { retryDelayMs?: number } = {}): WorkQueueConsumer {
    const retryDelayMs = options.retryDelayMs ?? 5_000;
    const logger = this.logger.child({ component: 'ingest-queue', queue: this.queue });
    let channel: ConfirmChannel | undefined;
    let stopped = false;
    let attaching: Promise<void> | undefined;
    let inFlight: Promise<void> | undefined;
    let retryTimer: NodeJS.Timeout | undefined;

    const handleMessage = async (own: ConfirmChannel, message: ConsumeMessage) => {
      const job = jobOf(message.content);
      if (!job) {
        logger.warn({ message_id: message.properties.messageId }, 'malformed ingest job dropped');
        own.ack(message);
        return;
      }
      let outcome: 'done' | 'retry';
      try {
        outcome = await handle(job);
      } catch (error) {
        logger.warn({ err: error, job_id: job.jobId }, 'ingest job could not run; it runs again later');
        outcome = 'retry';
      }
      if (stopped || channel !== own) return; // the broker redelivers what this channel did not acknowledge
      if (outcome === 'done') own.ack(message);
      else await new Promise<void>((resolve) => setTimeout(resolve, retryDelayMs).unref()).then(() => own.nack(message, false, true));
    };

    const attach = async () => {
      if (stopped || channel) return;
      // The queue is declared on a channel of its own: a refused declaration costs only that channel.
      const declaring = await this.broker.createChannel();
      declaring.on('error', () => {});
      try {
        await declaring.assertQueue(this.queue, { durable: true, arguments: QUEUE_ARGUMENTS });
      } finally {
        await declaring.close().catch(() => {});
      }
      const own = await this.broker.createChannel();
      own.on('error', (error: unknown) => logger.warn({ err: error }, 'ingest queue channel error'));
      own.on('close', () => {
        if (channel === own) channel = undefined;
        if (!stopped && this.broker.isConnected()) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(attachInBackground, 1_000);
        }
      });
      await own.prefetch(1);
      channel = own;
      await own.consume(this.queue, (message) => {
        if (!message) return void own.close().catch(() => {});
        inFlight = handleMessage(own, message).finally(() => (inFlight = undefined));
      });
      logger.info('consuming ingest jobs');
    };
    const attachInBackground = () => {
      attaching ??= attach()
        .catch((error: unknown) => {
          if (error instanceof BrokerUnavailableError || !this.broker.isConnected()) return;
          logger.error({ err: error }, 'cannot consume ingest jobs; retrying');
          clearTimeout(retryTimer);
          retryTimer = setTimeout(attachInBackground, 2_000);
        })
        .finally(() => (attaching = undefined));
    };
    const unsubscribe = this.broker.onConnected(attachInBackground);
    if (this.broker.isConnected()) attachInBackground();

    return {
      stop: async () => {
        stopped = true;
        unsubscribe();
        clearTimeout(retryTimer);
        await attaching?.catch(() => {});
        const own = channel;
        channel = undefined;
        await own?.close().catch(() => {});
        await inFlight?.catch(() => {});
      },
    };
  }

  async close(): Promise<void> {
    const publisher = this.publisher;
    this.publisher = undefined;
    await publisher?.then((channel) => channel.close()).catch(() => {});
  }

  private publishChannel(): Promise<ConfirmChannel> {
    if (!this.publisher) {
      const created = (async () => {
        const channel = await this.broker.createChannel();
        channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'ingest queue publish channel error'));
        channel.on('close', () => {
          if (this.publisher === created) this.publisher = undefined;
        });
        await channel.assertQueue(this.queue, { durable: true, arguments: QUEUE_ARGUMENTS });
        return channel;
      })();
      created.catch(() => {
        if (this.publisher === created) this.publisher = undefined;
      });
      this.publisher = created;
    }
    return this.publisher;
  }
}

function jobOf(content: Buffer): JobRef | null {
  try {
    const value = JSON.parse(content.toString('utf8')) as Record<string, unknown>;
    const int = (field: unknown) => (typeof field === 'number' && Number.isSafeInteger(field) && field > 0 ? field : null);
    const tenantId = int(value.tenant_id);
    const issueId = int(value.issue_id);
    if (tenantId === null || issueId === null || typeof value.job_id !== 'string' || !value.job_id) return null;
    return { tenantId, issueId, jobId: value.job_id };
  } catch {
    return null;
  }
}

// Typed configuration of the notes service, parsed once at boot. Every other
// module receives the parsed object; nothing else reads process.env.
import { env, loadConfig, serviceEnv } from '@folio/config';
import { z } from 'zod';

export const configSchema = serviceEnv({ grpcPort: 50055, database: 'folio_notes' }).extend({
  /** identity's topic exchange, where account.deleted comes from (tests use their own). */
  IDENTITY_EVENTS_EXCHANGE: env.string('identity.events'),
  /** Prefix of the consumer queue names: `<prefix>.account-eraser`. */
  QUEUE_PREFIX: env.string('notes'),
  CONSUMER_MAX_RETRIES: env.int(5).pipe(z.number().min(0)),
  CONSUMER_RETRY_DELAY_MS: env.int(2_000).pipe(z.number().min(0)),
});

export type NotesConfig = z.infer<typeof configSchema>;

export function loadNotesConfig(environment: Record<string, string | undefined> = process.env): NotesConfig {
  return loadConfig(configSchema, environment);
}

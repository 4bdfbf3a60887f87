// Typed configuration of the notes service, parsed once at boot. Every other
// module receives the parsed object; nothing else reads process.env.
import { accountEraserEnv, env, loadConfig, serviceEnv } from '@folio/config';
import { z } from 'zod';

export const configSchema = serviceEnv({ grpcPort: 50055, database: 'folio_notes' }).extend({
  ...accountEraserEnv('notes'),
  /**
   * A reader's notes in one issue are kept in memory this long at most (writes drop them at
   * once, here and, through notes.changed, on the other replicas); 0: off.
   */
  NOTES_CACHE_TTL_MS: env.int(60_000).pipe(z.number().min(0)),
  NOTES_CACHE_MAX_ENTRIES: env.int(50_000).pipe(z.number().min(100)),
  /** Topic exchange notes announces notes.changed on (cache invalidation between replicas). */
  EVENTS_EXCHANGE: env.string('notes.events'),
});

export type NotesConfig = z.infer<typeof configSchema>;

export function loadNotesConfig(environment: Record<string, string | undefined> = process.env): NotesConfig {
  return loadConfig(configSchema, environment);
}

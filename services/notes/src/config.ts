// Typed configuration of the notes service, parsed once at boot. Every other
// module receives the parsed object; nothing else reads process.env.
import { accountEraserEnv, loadConfig, serviceEnv } from '@folio/config';
import { z } from 'zod';

export const configSchema = serviceEnv({ grpcPort: 50055, database: 'folio_notes' }).extend({
  ...accountEraserEnv('notes'),
});

export type NotesConfig = z.infer<typeof configSchema>;

export function loadNotesConfig(environment: Record<string, string | undefined> = process.env): NotesConfig {
  return loadConfig(configSchema, environment);
}

// Typed configuration of the notes service, parsed once at boot.
import { loadConfig, serviceEnv } from '@folio/config';

export const configSchema = serviceEnv({ grpcPort: 50055, database: 'folio_notes' });

export type NotesConfig = ReturnType<typeof loadConfig<typeof configSchema>>;

export function loadNotesConfig(env: Record<string, string | undefined> = process.env): NotesConfig {
  return loadConfig(configSchema, env);
}

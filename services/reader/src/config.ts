// Typed configuration of the reader service, parsed once at boot.
import { loadConfig, serviceEnv } from '@folio/config';

export const configSchema = serviceEnv({ grpcPort: 50054, database: 'folio_reader' });

export type ReaderConfig = ReturnType<typeof loadConfig<typeof configSchema>>;

export function loadReaderConfig(env: Record<string, string | undefined> = process.env): ReaderConfig {
  return loadConfig(configSchema, env);
}

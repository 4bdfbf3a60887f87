// Typed configuration of the catalog service, parsed once at boot.
import { loadConfig, serviceEnv } from '@folio/config';

export const configSchema = serviceEnv({ grpcPort: 50052, database: 'folio_catalog' });

export type CatalogConfig = ReturnType<typeof loadConfig<typeof configSchema>>;

export function loadCatalogConfig(env: Record<string, string | undefined> = process.env): CatalogConfig {
  return loadConfig(configSchema, env);
}

// Typed configuration of the integrations service, parsed once at boot.
import { loadConfig, serviceEnv } from '@folio/config';

export const configSchema = serviceEnv({ grpcPort: 50056, database: 'folio_integrations' });

export type IntegrationsConfig = ReturnType<typeof loadConfig<typeof configSchema>>;

export function loadIntegrationsConfig(env: Record<string, string | undefined> = process.env): IntegrationsConfig {
  return loadConfig(configSchema, env);
}

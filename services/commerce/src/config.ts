// Typed configuration of the commerce service, parsed once at boot.
import { loadConfig, serviceEnv } from '@folio/config';

export const configSchema = serviceEnv({ grpcPort: 50053, database: 'folio_commerce' });

export type CommerceConfig = ReturnType<typeof loadConfig<typeof configSchema>>;

export function loadCommerceConfig(env: Record<string, string | undefined> = process.env): CommerceConfig {
  return loadConfig(configSchema, env);
}

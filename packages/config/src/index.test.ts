import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig, serviceEnv } from './index.js';

describe('loadConfig', () => {
  it('when the environment is empty, then the local-stack defaults apply', () => {
    const config = loadConfig(serviceEnv({ grpcPort: 50051, database: 'folio_identity' }), {});
    expect(config).toMatchObject({ GRPC_PORT: 50051, MONGO_URL: 'mongodb://127.0.0.1:27017/folio_identity', LOG_LEVEL: 'info' });
  });

  it('when several values are bad, then every offending key is named', () => {
    const schema = serviceEnv({ grpcPort: 1, database: 'x' }).extend({ FLAG: env.bool(false) });
    try {
      loadConfig(schema, { GRPC_PORT: '70000', MONGO_URL: 'not a url', FLAG: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('GRPC_PORT');
      expect(problems).toContain('MONGO_URL');
      expect(problems).toContain('FLAG');
    }
  });

  it('when values are given, then they are coerced to their types and can be reshaped', () => {
    const schema = z
      .object({ PORT: env.port(1), ON: env.bool(false), HOSTS: env.list() })
      .transform((e) => ({ http: { port: e.PORT }, on: e.ON, hosts: e.HOSTS }));
    expect(loadConfig(schema, { PORT: '8080', ON: 'true', HOSTS: 'a, b' })).toEqual({ http: { port: 8080 }, on: true, hosts: ['a', 'b'] });
  });
});

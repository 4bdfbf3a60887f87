import { ConfigError } from '@folio/config';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';

describe('gateway configuration', () => {
  it('when nothing is set, then the local-stack defaults apply and loopback proxies are trusted', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      HTTP_PORT: 8080,
      IDENTITY_ADDR: '127.0.0.1:50051',
      INTEGRATIONS_ADDR: '127.0.0.1:50056',
      GRPC_DEADLINE_MS: 2000,
      BREAKER_TIMEOUT_MS: 2500,
      BODY_LIMIT: '64kb',
      TRUSTED_PROXIES: ['loopback'],
      JWT_ISSUER: 'folio-identity',
      JWT_AUDIENCE: 'folio-api',
    });
  });

  it('when running in production without TRUSTED_PROXIES, then no proxy is trusted', () => {
    expect(loadGatewayConfig({ NODE_ENV: 'production' }).TRUSTED_PROXIES).toEqual([]);
    expect(loadGatewayConfig({ NODE_ENV: 'production', TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '192.168.1.1']);
  });

  it('when values are wrong, then every offending key is named', () => {
    let error: unknown;
    try {
      loadGatewayConfig({ GRPC_DEADLINE_MS: '3000', BREAKER_TIMEOUT_MS: '2500', TRUSTED_PROXIES: 'proxy.internal', CATALOG_ADDR: 'nope', BODY_LIMIT: 'big' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const keys = (error as ConfigError).problems.map((problem) => problem.split(':')[0]).sort();
    expect(keys).toEqual(['BODY_LIMIT', 'BREAKER_TIMEOUT_MS', 'CATALOG_ADDR', 'TRUSTED_PROXIES']);
  });
});

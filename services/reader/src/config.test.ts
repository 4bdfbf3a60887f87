import { ConfigError } from '@folio/config';
import { describe, expect, it } from 'vitest';
import { loadReaderConfig } from './config.js';

describe('reader configuration', () => {
  it('when nothing is set, then the local-stack defaults apply', () => {
    const config = loadReaderConfig({});
    expect(config).toMatchObject({
      GRPC_PORT: 50054,
      MEDIA_PORT: 8090,
      MEDIA_PUBLIC_BASE_URL: 'http://127.0.0.1:8080/media',
      READER_TOKEN_TTL_SECONDS: 86_400,
    });
    expect(config.READER_STORAGE_DIR).toMatch(/\.local\/content$/);
    expect(Buffer.from(config.READER_TOKEN_KEY, 'base64')).toHaveLength(32);
  });

  it('when production runs with the dev keys, or a key has the wrong size, then every offending key is named', () => {
    const problems = (environment: Record<string, string>) => {
      try {
        loadReaderConfig(environment);
        return '';
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems.join('\n');
      }
    };
    const production = problems({ NODE_ENV: 'production' });
    expect(production).toContain('READER_TOKEN_KEY');
    expect(production).toContain('MEDIA_SIGNING_KEY');
    expect(problems({ READER_TOKEN_KEY: Buffer.alloc(16).toString('base64') })).toContain('READER_TOKEN_KEY');
    expect(
      problems({ NODE_ENV: 'production', READER_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64'), MEDIA_SIGNING_KEY: 'a-real-secret-of-enough-length' }),
    ).toBe('');
  });
});

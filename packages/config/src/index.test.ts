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

  it('when a gRPC address is host:port, [IPv6]:port, unix:/absolute/path or a list of replicas, then it is taken; anything else is refused with its key', () => {
    const schema = z.object({ PEER_ADDR: env.grpcAddress('127.0.0.1:50051') });
    const replicas = ['ipv4:127.0.0.1:50052', 'ipv4:127.0.0.1:50052,127.0.0.1:50152', 'dns:///catalog-headless:50052', 'dns:catalog:50052'];
    for (const value of ['catalog:50052', '10.0.0.7:50052', '[::1]:50052', 'unix:/work/.local/run/catalog.grpc.sock', ...replicas]) {
      expect(loadConfig(schema, { PEER_ADDR: value }).PEER_ADDR).toBe(value);
    }
    expect(loadConfig(schema, {}).PEER_ADDR).toBe('127.0.0.1:50051');
    const badLists = ['ipv4:', 'ipv4:127.0.0.1:50052,', 'ipv4:catalog:50052', '127.0.0.1:50052,127.0.0.1:50152', 'dns:///catalog'];
    for (const value of ['catalog', 'http://catalog:50052', 'unix:relative.sock', 'catalog:port', ...badLists]) {
      expect(() => loadConfig(schema, { PEER_ADDR: value }), value).toThrow(/PEER_ADDR: must be host:port, unix:\/absolute\/path, ipv4:/);
    }
  });

  it('when an optional gRPC address is blank, then there is none; otherwise it is checked like any other', () => {
    const schema = z.object({ PEER_ADDR: env.optionalGrpcAddress('127.0.0.1:50054') });
    expect(loadConfig(schema, {}).PEER_ADDR).toBe('127.0.0.1:50054');
    expect(loadConfig(schema, { PEER_ADDR: ' ' }).PEER_ADDR).toBeUndefined();
    expect(loadConfig(schema, { PEER_ADDR: 'unix:/run/reader.grpc.sock' }).PEER_ADDR).toBe('unix:/run/reader.grpc.sock');
    expect(() => loadConfig(schema, { PEER_ADDR: 'reader' })).toThrow(/PEER_ADDR: must be host:port, unix:\/absolute\/path/);
  });

  it('when REDIS_URL is a redis:// or rediss:// URL or an absolute socket path, then it is taken; anything else is refused', () => {
    const schema = z.object({ REDIS_URL: env.redisUrl('redis://127.0.0.1:6379') });
    for (const value of ['redis://redis:6379', 'rediss://:secret@cache.example:6380/2', '/work/.local/run/redis.sock']) {
      expect(loadConfig(schema, { REDIS_URL: value }).REDIS_URL).toBe(value);
    }
    expect(loadConfig(schema, {}).REDIS_URL).toBe('redis://127.0.0.1:6379');
    for (const value of ['redis.sock', 'http://redis:6379', 'unix:///run/redis.sock', '']) {
      expect(() => loadConfig(schema, { REDIS_URL: value }), value).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    }
  });

  it('when GRPC_UNIX_SOCKET is blank or absent, then there is none; a relative path is refused', () => {
    const schema = serviceEnv({ grpcPort: 1, database: 'x' });
    expect(loadConfig(schema, {}).GRPC_UNIX_SOCKET).toBeUndefined();
    expect(loadConfig(schema, { GRPC_UNIX_SOCKET: ' ' }).GRPC_UNIX_SOCKET).toBeUndefined();
    expect(loadConfig(schema, { GRPC_UNIX_SOCKET: '/tmp/x.sock' }).GRPC_UNIX_SOCKET).toBe('/tmp/x.sock');
    expect(() => loadConfig(schema, { GRPC_UNIX_SOCKET: 'x.sock' })).toThrow(/GRPC_UNIX_SOCKET: must be an absolute path/);
  });
});

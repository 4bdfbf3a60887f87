// The listen cache (spec: 30 minutes): MP3 bytes in Redis under a hash of the
// engine, voice and text, stored as binary values. Redis trouble degrades to
// synthesizing again, never to a failed request.
import { createHash } from 'node:crypto';
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';
import type { AudioCache } from '../domain/ports.js';

/** The cache key of one utterance: a hash, so neither the text nor its length shows in Redis. */
export function audioCacheKey(engine: string, voiceId: string, text: string): string {
  return createHash('sha256').update(`${engine}\u0000${voiceId}\u0000${text}`, 'utf8').digest('hex');
}

export class RedisAudioCache implements AudioCache {
  constructor(
    private readonly redis: Redis,
    private readonly options: { prefix: string; ttlSeconds: number; logger: Logger },
  ) {}

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return (await this.redis.getBuffer(`${this.options.prefix}:${key}`)) ?? undefined;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'listen cache read failed: synthesizing');
      return undefined;
    }
  }

  async set(key: string, audio: Buffer): Promise<void> {
    try {
      await this.redis.set(`${this.options.prefix}:${key}`, audio, 'EX', this.options.ttlSeconds);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'listen cache write failed');
    }
  }
}

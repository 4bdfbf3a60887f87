// Wires the integrations service: database, Redis listen cache, the broker
// with the account eraser, one engine per capability (the local engine, or
// the hosted adapter when its URL is configured) behind its own circuit
// breaker, and the gRPC server. Tests start it in-process on port 0 and may
// hand in engines of their own (a counting synthesizer, a hanging provider).
import { createLogger, type Logger } from '@folio/logger';
import type { AccountDeletion } from '@folio/messaging';
import { integrations } from '@folio/proto';
import { startService } from '@folio/service';
import type { IntegrationsConfig } from './config.js';
import { MongoAiResponseRepository } from './data/ai-responses.js';
import { audioCacheKey, RedisAudioCache } from './data/audio-cache.js';
import { AiActions } from './domain/ai-actions.js';
import { DefineWord } from './domain/dictionary.js';
import { ListenToText } from './domain/listen.js';
import type { AiEngine, Dictionary, LanguageDetector, PassageSource, SpeechSynthesizer, Translator } from './domain/ports.js';
import { TranslateText } from './domain/translate.js';
import { AiDictionary } from './engines/ai-dictionary.js';
import { ApertiumTranslator } from './engines/apertium.js';
import { ProviderBreaker, type BreakerSettings } from './engines/breaker.js';
import { EspeakSynthesizer } from './engines/espeak.js';
import { GoogleTranslateAdapter } from './engines/google-translate.js';
import { GuardedAiEngine, GuardedDictionary, GuardedPassageSource, GuardedSynthesizer, GuardedTranslator } from './engines/guarded.js';
import { FrancDetector } from './engines/language-detection.js';
import { LocalAiEngine } from './engines/local-ai.js';
import { OpenAiActionEngine, OpenAiChatClient } from './engines/openai-chat.js';
import { PollyAdapter } from './engines/polly.js';
import { ReaderPassageSource } from './engines/reader-passages.js';
import { WordNetDictionary } from './engines/wordnet-dictionary.js';
import { WordNet } from './engines/wordnet.js';
import { integrationsHandlers } from './grpc/handlers.js';

export const SERVICE_NAME = 'svc.integrations.v1.IntegrationsService';

/** Engines a caller (a test) hands in instead of the configured ones; each still runs behind its breaker. */
export interface EngineOverrides {
  translator?: Translator;
  synthesizer?: SpeechSynthesizer;
  dictionary?: Dictionary;
  ai?: AiEngine;
  passages?: PassageSource;
}

export interface RunningIntegrations {
  grpcPort: number;
  /** Names of the engines in use, per capability (for logs and tests). */
  engines: { translate: string; listen: string; dictionary: string; ai: string };
  stop(): Promise<void>;
}

export async function startIntegrations(
  config: IntegrationsConfig,
  logger: Logger = createLogger({ service: 'integrations', level: config.LOG_LEVEL }),
  overrides: EngineOverrides = {},
): Promise<RunningIntegrations> {
  // Each connection closes on stop, newest first, or when start-up fails half-way.
  return startService('integrations', logger, async (kit) => {
    const connection = await kit.mongo(config.MONGO_URL);
    const responses = await MongoAiResponseRepository.open(connection);

    const redis = kit.redis(config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 5_000 });
    const cache = new RedisAudioCache(redis, { prefix: config.LISTEN_CACHE_PREFIX, ttlSeconds: config.LISTEN_CACHE_TTL_SECONDS, logger });

    const breaker = (provider: string, timeoutMs: number, extra: Partial<BreakerSettings> = {}) => {
      const created = new ProviderBreaker(
        provider,
        { timeoutMs, resetMs: config.BREAKER_RESET_MS, errorPercent: config.BREAKER_ERROR_PERCENT, volume: config.BREAKER_VOLUME, ...extra },
        logger,
      );
      kit.onStop(() => created.shutdown());
      return created;
    };
    const local = { concurrency: config.LOCAL_ENGINE_CONCURRENCY };

    const detector: LanguageDetector = new FrancDetector();
    const wordnet = new WordNet(config.WORDNET_DIR);
    kit.onStop(() => wordnet.close());
    // Reading the indexes takes about a second: do it now rather than in the first request.
    wordnet.load().catch((error: unknown) => logger.warn({ err: error, dir: config.WORDNET_DIR }, 'WordNet could not be loaded'));
    const chat = config.AI_BASE_URL ? new OpenAiChatClient({ baseUrl: config.AI_BASE_URL, model: config.AI_MODEL, apiKey: config.AI_API_KEY }) : undefined;

    const rawTranslator =
      overrides.translator ??
      (config.TRANSLATE_HOSTED_URL
        ? new GoogleTranslateAdapter({ url: config.TRANSLATE_HOSTED_URL, key: config.TRANSLATE_HOSTED_KEY })
        : new ApertiumTranslator({ bin: config.APERTIUM_BIN, detector }));
    const translator = new GuardedTranslator(
      rawTranslator,
      breaker(`translate:${rawTranslator.name}`, config.TRANSLATE_TIMEOUT_MS, rawTranslator instanceof ApertiumTranslator ? local : {}),
    );
    if (rawTranslator instanceof ApertiumTranslator) {
      rawTranslator.languagePairs().then(
        (pairs) => logger.info({ pairs: [...pairs.entries()].map(([from, to]) => `${from}->${[...to.keys()].join(',')}`) }, 'apertium language pairs'),
        (error: unknown) => logger.warn({ err: error }, 'apertium is not installed: translations will fail with 503'),
      );
    }

    const rawSynthesizer =
      overrides.synthesizer ??
      (config.LISTEN_HOSTED_URL
        ? new PollyAdapter({ url: config.LISTEN_HOSTED_URL, key: config.LISTEN_HOSTED_KEY })
        : new EspeakSynthesizer({ espeakBin: config.ESPEAK_BIN, lameBin: config.LAME_BIN, bitrateKbps: config.LAME_BITRATE }));
    const synthesizer = new GuardedSynthesizer(
      rawSynthesizer,
      breaker(`listen:${rawSynthesizer.name}`, config.LISTEN_TIMEOUT_MS, rawSynthesizer instanceof EspeakSynthesizer ? local : {}),
    );

    const rawDictionary = overrides.dictionary ?? (chat ? new AiDictionary(chat) : new WordNetDictionary(wordnet, translator));
    const dictionary = new GuardedDictionary(rawDictionary, breaker(`dictionary:${rawDictionary.name}`, config.DICTIONARY_TIMEOUT_MS));

    let passages: PassageSource | undefined = overrides.passages;
    if (!passages && config.READER_ADDR) {
      const reader = new ReaderPassageSource(config.READER_ADDR, config.PASSAGES_TIMEOUT_MS);
      kit.onStop(() => reader.close());
      passages = reader;
    }
    const guardedPassages = passages && new GuardedPassageSource(passages, breaker('reader-passages', config.PASSAGES_TIMEOUT_MS));
    const rawAi =
      overrides.ai ?? (chat ? new OpenAiActionEngine(chat) : new LocalAiEngine({ wordnet, translator, detector, passages: guardedPassages, logger }));
    const ai = new GuardedAiEngine(rawAi, breaker(`ai:${rawAi.name}`, config.AI_TIMEOUT_MS));

    const broker = await kit.broker(config.AMQP_URL);
    // account.deleted erases the user's AI responses and ratings (@folio/messaging decodes it).
    const eraseResponses = async ({ userId }: AccountDeletion) =>
      logger.info({ user_id: userId, erased: await responses.eraseUser(userId) }, 'AI responses of a deleted account erased');
    await kit.eraser({ broker, connection, config, erase: eraseResponses });

    const grpc = await kit.grpc(config, [
      {
        name: SERVICE_NAME,
        definition: integrations.IntegrationsServiceService,
        handlers: integrationsHandlers({
          translate: new TranslateText(translator),
          listen: new ListenToText({ synthesizer, cache, detector, cacheKey: audioCacheKey }),
          define: new DefineWord(dictionary),
          ai: new AiActions(ai, responses),
        }),
      },
    ]);
    const engines = { translate: rawTranslator.name, listen: rawSynthesizer.name, dictionary: rawDictionary.name, ai: rawAi.name };
    logger.info({ engines }, 'integrations engines');

    return { grpcPort: grpc.port, engines, stop: kit.stop };
  });
}

// gRPC entry point of integrations: decode the request, call a use case,
// encode the reply. No rules live here.
import type { ServiceHandlers } from '@folio/grpc';
import { integrations } from '@folio/proto';
import type { AiActions, Rating } from '../domain/ai-actions.js';
import { checkCaller, type Caller } from '../domain/caller.js';
import type { DefineWord } from '../domain/dictionary.js';
import type { ListenToText } from '../domain/listen.js';
import type { TranslateText } from '../domain/translate.js';

export interface UseCases {
  translate: TranslateText;
  listen: ListenToText;
  define: DefineWord;
  ai: AiActions;
}

export function callerOf(caller: integrations.Caller | undefined): Caller {
  return checkCaller(
    caller && {
      tenantId: caller.tenantId,
      userId: caller.userId,
      issueId: caller.issueId,
      readerToken: caller.readerToken,
      session: { id: caller.sessionId, preview: caller.preview, previewLimit: caller.previewLimit },
      textEncrypted: textEncryptedOf(caller),
      tenantLang: caller.tenantLang,
      ttsEnabled: caller.ttsEnabled,
      appLang: caller.appLang,
    },
  );
}

/** What the gateway says; unspecified is encrypted, so a caller that does not say cannot turn decryption off. */
function textEncryptedOf(caller: integrations.Caller): boolean {
  return caller.textEncoding !== integrations.TextEncoding.TEXT_ENCODING_PLAINTEXT;
}

function ratingOf(request: integrations.RateAiResponseRequest): Rating | undefined {
  if (request.positive !== undefined) return { positive: request.positive };
  if (request.score !== undefined) return { score: request.score };
  return undefined;
}

export function integrationsHandlers(app: UseCases): ServiceHandlers<typeof integrations.IntegrationsServiceService> {
  return {
    async translate(request) {
      const result = await app.translate.run(callerOf(request.caller), { text: request.text, targetLang: request.targetLang });
      return {
        translations: [{ translatedText: result.translatedText, detectedSourceLanguage: result.detectedSourceLanguage }],
        uuid: result.uuid,
      };
    },

    async listen(request) {
      const result = await app.listen.run(callerOf(request.caller), { text: request.text, voiceId: request.voiceId });
      return { audio: result.audio, contentType: 'audio/mpeg', voiceId: result.voiceId, cacheHit: result.cacheHit };
    },

    async define(request) {
      return app.define.run(callerOf(request.caller), { text: request.text, lang: request.lang });
    },

    async listAiActions(request) {
      // Checked as on every call, though the list is the same for every caller.
      callerOf(request.caller);
      return { actions: app.ai.list().map((key) => ({ key })) };
    },

    async runAiAction(request) {
      return app.ai.run(callerOf(request.caller), { action: request.action, text: request.text, lang: request.lang });
    },

    async rateAiResponse(request) {
      await app.ai.rate(callerOf(request.caller), { uuid: request.uuid, rating: ratingOf(request) });
      return {};
    },
  };
}

// The deprecated AiAction.label, for a gateway of the release before: the
// gateway labels the actions itself now. This goes with that field.
import type { Caller } from '../domain/caller.js';
import { appLanguageOr } from '../domain/languages.js';
import type { AiActionName } from '../domain/ports.js';

const LABELS: Record<string, Record<AiActionName, string>> = {
  en: { explain: 'Explain', expand: 'Expand', summarize: 'Summarize' },
  es: { explain: 'Explicar', expand: 'Ampliar', summarize: 'Resumir' },
  pt: { explain: 'Explicar', expand: 'Expandir', summarize: 'Resumir' },
  it: { explain: 'Spiega', expand: 'Approfondisci', summarize: 'Riassumi' },
};

/** The label in the app's language (X-App-Lang), else the tenant's, else English. */
export function legacyAiActionLabel(action: AiActionName, caller: Pick<Caller, 'appLang' | 'tenantLang'>): string {
  return LABELS[appLanguageOr(caller.appLang, caller.tenantLang)]![action];
}

// The AI actions as the client sees them: each key labelled in the app's
// language (X-App-Lang when sent), else in the tenant's.
import { langOf, type Lang } from './lang.js';

const AI_ACTION_LABELS: Record<Lang, Record<string, string>> = {
  en: { explain: 'Explain', expand: 'Expand', summarize: 'Summarize' },
  es: { explain: 'Explicar', expand: 'Ampliar', summarize: 'Resumir' },
  pt: { explain: 'Explicar', expand: 'Expandir', summarize: 'Resumir' },
  it: { explain: 'Spiega', expand: 'Approfondisci', summarize: 'Riassumi' },
};

/** The language of the labels: the app's when it sent X-App-Lang, else the tenant's configured one. */
export function aiLabelLang(appLang: Lang | undefined, tenantLang: string): Lang {
  return appLang ?? langOf(tenantLang);
}

/** The label of an action in `lang`; an action this table does not know shows its key. */
export function aiActionLabel(action: string, lang: Lang): string {
  return AI_ACTION_LABELS[lang][action] ?? action;
}

/** `GET .../integrations/ai-integrations`: action key to label, in the order integrations offers them. */
export function aiActionsToWire(actions: readonly string[], lang: Lang): Record<string, string> {
  return Object.fromEntries(actions.map((action) => [action, aiActionLabel(action, lang)]));
}

// The speech voices a client can ask for by `voiceId`. The ids are Amazon
// Polly's voice names, so that the hosted adapter passes them through
// unchanged and clients written for the Polly-backed API keep working; the
// local engine maps each to an espeak-ng voice of the same language and sex.
import type { AppLanguage } from './languages.js';

export interface Voice {
  id: string;
  language: AppLanguage;
  /** BCP 47 tag of the accent. */
  locale: string;
  gender: 'female' | 'male';
  /** espeak-ng voice (`language+variant`). */
  espeak: string;
}

export const VOICES: readonly Voice[] = [
  { id: 'Joanna', language: 'en', locale: 'en-US', gender: 'female', espeak: 'en-us+f3' },
  { id: 'Matthew', language: 'en', locale: 'en-US', gender: 'male', espeak: 'en-us+m3' },
  { id: 'Amy', language: 'en', locale: 'en-GB', gender: 'female', espeak: 'en-gb+f3' },
  { id: 'Lucia', language: 'es', locale: 'es-ES', gender: 'female', espeak: 'es+f3' },
  { id: 'Enrique', language: 'es', locale: 'es-ES', gender: 'male', espeak: 'es+m3' },
  { id: 'Mia', language: 'es', locale: 'es-MX', gender: 'female', espeak: 'es-419+f3' },
  { id: 'Camila', language: 'pt', locale: 'pt-BR', gender: 'female', espeak: 'pt-br+f3' },
  { id: 'Ricardo', language: 'pt', locale: 'pt-BR', gender: 'male', espeak: 'pt-br+m3' },
  { id: 'Ines', language: 'pt', locale: 'pt-PT', gender: 'female', espeak: 'pt+f3' },
  { id: 'Bianca', language: 'it', locale: 'it-IT', gender: 'female', espeak: 'it+f3' },
  { id: 'Giorgio', language: 'it', locale: 'it-IT', gender: 'male', espeak: 'it+m3' },
];

/** The voice used when a request names none, per language. */
export const DEFAULT_VOICE: Record<AppLanguage, string> = { en: 'Joanna', es: 'Lucia', pt: 'Camila', it: 'Bianca' };

const BY_ID = new Map(VOICES.map((voice) => [voice.id.toLowerCase(), voice]));

/** Case-insensitive; Polly spells Inês with the accent, which is accepted too. */
export function findVoice(id: string): Voice | undefined {
  return BY_ID.get(id.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, ''));
}

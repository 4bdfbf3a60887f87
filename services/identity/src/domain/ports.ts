// What the use cases need from the outside world, as interfaces: the
// adapters live in mail/ and events/, tests can run the real ones.

/** Publishes a domain event reliably (through the outbox: a broker outage loses nothing). */
export interface EventSink {
  publish<P>(type: string, payload: P, options?: { tenantId?: number; id?: string }): Promise<void>;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

export type Lang = 'en' | 'es' | 'pt' | 'it';
export const LANGS: readonly Lang[] = ['en', 'es', 'pt', 'it'];

/** The language of e-mails and help texts: one of the four, default English. */
export function langOf(value: string | undefined | null): Lang {
  const lang = (value ?? '').trim().toLowerCase().slice(0, 2);
  return (LANGS as readonly string[]).includes(lang) ? (lang as Lang) : 'en';
}

/** Delivers a login code to the user in their language. */
export interface LoginCodeSender {
  sendCode(message: { to: string; code: string; lang: Lang; tenantName: string; ttlSeconds: number }): Promise<void>;
}

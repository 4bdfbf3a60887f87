// The login code e-mail in the four app languages. The plain-text body
// contains the code as its only run of digits longer than two (clients and
// tests read it from there), so it never repeats the address or a date.
import type { Lang, LoginCodeSender, MailSender } from '../domain/ports.js';
import { escapeHtml } from './mailer.js';

interface Template {
  subject: (tenant: string) => string;
  greeting: string;
  intro: (tenant: string) => string;
  expiry: (minutes: number) => string;
  ignore: string;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

const TEMPLATES: Record<Lang, Template> = {
  en: {
    subject: (tenant) => `Your ${tenant} login code`,
    greeting: 'Hello,',
    intro: (tenant) => `Use this code to log in to ${tenant}:`,
    expiry: (n) => `The code expires in ${n} ${plural(n, 'minute', 'minutes')} and can be used only once.`,
    ignore: 'If you did not ask for it, you can ignore this e-mail.',
  },
  es: {
    subject: (tenant) => `Tu código de acceso a ${tenant}`,
    greeting: 'Hola:',
    intro: (tenant) => `Usa este código para iniciar sesión en ${tenant}:`,
    expiry: (n) => `El código vence en ${n} ${plural(n, 'minuto', 'minutos')} y solo puede usarse una vez.`,
    ignore: 'Si no lo solicitaste, puedes ignorar este correo.',
  },
  pt: {
    subject: (tenant) => `Seu código de acesso – ${tenant}`,
    greeting: 'Olá,',
    intro: (tenant) => `Use este código para entrar em ${tenant}:`,
    expiry: (n) => `O código expira em ${n} ${plural(n, 'minuto', 'minutos')} e só pode ser usado uma vez.`,
    ignore: 'Se você não o solicitou, ignore este e-mail.',
  },
  it: {
    subject: (tenant) => `Il tuo codice di accesso a ${tenant}`,
    greeting: 'Ciao,',
    intro: (tenant) => `Usa questo codice per accedere a ${tenant}:`,
    expiry: (n) => `Il codice scade tra ${n} ${plural(n, 'minuto', 'minuti')} e può essere usato una sola volta.`,
    ignore: "Se non l'hai richiesto, puoi ignorare questa e-mail.",
  },
};

export function loginCodeMail(input: { code: string; lang: Lang; tenantName: string; ttlSeconds: number }) {
  const t = TEMPLATES[input.lang] ?? TEMPLATES.en;
  const minutes = Math.max(1, Math.round(input.ttlSeconds / 60));
  const text = [t.greeting, '', t.intro(input.tenantName), '', `    ${input.code}`, '', t.expiry(minutes), t.ignore, ''].join('\n');
  const html = [
    `<p>${escapeHtml(t.greeting)}</p>`,
    `<p>${escapeHtml(t.intro(input.tenantName))}</p>`,
    `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;font-family:monospace">${escapeHtml(input.code)}</p>`,
    `<p>${escapeHtml(t.expiry(minutes))}<br>${escapeHtml(t.ignore)}</p>`,
  ].join('\n');
  return { subject: t.subject(input.tenantName), text, html };
}

export class LoginCodeMailer implements LoginCodeSender {
  constructor(private readonly mailer: MailSender) {}

  async sendCode(message: { to: string; code: string; lang: Lang; tenantName: string; ttlSeconds: number }): Promise<void> {
    await this.mailer.send({ to: message.to, ...loginCodeMail(message) });
  }
}

import { testInfra } from './infra.js';
import { waitFor } from './wait.js';

export interface ReceivedEmail {
  id: string;
  subject: string;
  text: string;
  html?: string;
  to: { address: string }[];
  date: string;
}

/** Every e-mail MailDev holds for an address, newest last. */
export async function emailsTo(address: string): Promise<ReceivedEmail[]> {
  const response = await fetch(`${testInfra().maildevUrl}/email`);
  if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
  const all = (await response.json()) as ReceivedEmail[];
  const wanted = address.toLowerCase();
  return all.filter((mail) => mail.to.some((to) => to.address.toLowerCase() === wanted));
}

/** Waits for the `nth` (1-based) e-mail to an address. */
export async function waitForEmail(address: string, { nth = 1, timeoutMs = 10_000 } = {}): Promise<ReceivedEmail> {
  return waitFor(async () => (await emailsTo(address))[nth - 1], { timeoutMs, what: `e-mail #${nth} to ${address}` });
}

/** The login code: the only run of exactly 8 digits in the plain-text body. */
export function loginCodeFrom(mail: ReceivedEmail): string {
  const match = mail.text.match(/(?<!\d)\d{8}(?!\d)/);
  if (!match) throw new Error(`no 8-digit code in e-mail "${mail.subject}"`);
  return match[0];
}

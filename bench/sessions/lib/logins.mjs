// Access tokens for many users: a thousand e-mail logins would each wait on
// SMTP and MailDev, so tokens are cached in .local/bench/sessions-logins.json
// with their refresh token, and a user whose access token is about to expire
// is refreshed (POST /api/v2/auth/refresh) rather than logged in again. Scale
// users start from the refresh tokens the generator stores for their sessions
// (`scale-refresh-token-<i>`, ../../scale/generate.mjs); the demo dataset's
// users log in by e-mail code once (the first login creates the user in
// tenant 1). Logins run a batch at a time, the batch's codes read from one
// MailDev listing, and each e-mail read is deleted so that MailDev's list,
// read once per batch, stays short.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { request } from '../../api/lib/http.mjs';

const BATCH = 16;
/** A token must outlive the run by this much; identity issues them for an hour. */
const MARGIN_MS = 15 * 60_000;

/**
 * @param users  [{ email, refreshSeeds?: string[] }] refresh tokens to try before an e-mail login (scale users)
 * @returns      [{ email, token }] in the order given, and how each was obtained
 */
export async function loginMany(users, { gateway, maildev, cacheFile, log }) {
  const cache = await readJson(cacheFile);
  const how = { reused: 0, refreshed: 0, emailed: 0 };
  const tokens = new Map();
  const pending = [];

  await inBatches(users, 32, async (user) => {
    const cached = cache[user.email];
    if (cached && (await usable(gateway, cached.access_token))) {
      tokens.set(user.email, cached.access_token);
      how.reused += 1;
      return;
    }
    for (const refreshToken of [cached?.refresh_token, ...(cached ? [] : (user.refreshSeeds ?? []))].filter(Boolean)) {
      const refreshed = await request(gateway, 'POST', '/api/v2/auth/refresh', { body: { refresh_token: refreshToken } });
      if (refreshed.status === 200) {
        cache[user.email] = pairOf(refreshed.body);
        tokens.set(user.email, refreshed.body.access_token);
        how.refreshed += 1;
        return;
      }
    }
    pending.push(user.email);
  });

  for (let i = 0; i < pending.length; i += BATCH) {
    const batch = pending.slice(i, i + BATCH);
    for (const [email, pair] of await emailLogins(batch, { gateway, maildev })) {
      cache[email] = pair;
      tokens.set(email, pair.access_token);
      how.emailed += 1;
    }
    await save(cacheFile, cache);
    if (pending.length > BATCH) log(`  ${Math.min(i + BATCH, pending.length)} of ${pending.length} e-mail logins`);
  }
  await save(cacheFile, cache);
  return { tokens: users.map(({ email }) => ({ email, token: tokens.get(email) })), how };
}

async function emailLogins(emails, { gateway, maildev }) {
  // Mails already there (an earlier run's codes) are not this login's.
  const earlier = new Set((await listMails(maildev)).map((mail) => mail.id));
  const started = await Promise.all(
    emails.map(async (email) => {
      const init = await retried(() => request(gateway, 'POST', '/api/v2/login/token/init', { body: { email }, headers: { 'x-app-lang': 'en' } }));
      if (init.status !== 201) throw new Error(`login init of ${email} answered ${init.status}: ${init.text.slice(0, 200)}`);
      return email;
    }),
  );
  const codes = new Map();
  const deadline = Date.now() + 30_000;
  while (codes.size < started.length) {
    if (Date.now() > deadline) throw new Error(`no login e-mail in MailDev (${maildev}) for ${started.filter((e) => !codes.has(e)).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    for (const mail of await listMails(maildev)) {
      if (earlier.has(mail.id)) continue;
      const to = mail.to.map((address) => address.address.toLowerCase()).find((address) => started.includes(address));
      const code = mail.text?.match(/(?<!\d)\d{8}(?!\d)/)?.[0];
      if (!to || !code) continue;
      // The newest code of an address is the valid one: MailDev lists oldest first.
      codes.set(to, code);
      await fetch(`${maildev}/email/${mail.id}`, { method: 'DELETE' }).catch(() => undefined);
    }
  }
  return Promise.all(
    started.map(async (email) => {
      const validated = await retried(() => request(gateway, 'POST', '/api/v2/login/token/validate', { body: { email, code: codes.get(email) } }));
      if (validated.status !== 200) throw new Error(`login validate of ${email} answered ${validated.status}: ${validated.text.slice(0, 200)}`);
      return [email, pairOf(validated.body)];
    }),
  );
}

/** Other people restart services of the shared stack: a 5xx or a refused connection is tried again for a while. */
async function retried(call) {
  for (let attempt = 1; ; attempt++) {
    const response = await call().catch(() => ({ status: 0, text: 'no answer' }));
    if ((response.status !== 0 && response.status < 500) || attempt === 8) return response;
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}

async function listMails(maildev) {
  const response = await fetch(`${maildev}/email`);
  if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
  return response.json();
}

async function usable(gateway, jwt) {
  try {
    const exp = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')).exp * 1000;
    if (exp < Date.now() + MARGIN_MS) return false;
    return (await request(gateway, 'GET', '/api/v2/auth/session/validate', { token: jwt })).status === 200;
  } catch {
    return false;
  }
}

const pairOf = (body) => ({ access_token: body.access_token, refresh_token: body.refresh_token, obtained_at: Date.now() });

export async function inBatches(items, size, fn) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function save(path, cache) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(cache));
}

async function readJson(path) {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return {};
  }
}

// Real logins for the benchmark: the e-mail code flow a user goes through
// (init, read the code in MailDev's REST API, validate). Identity allows 5
// codes per e-mail per 10 minutes and 5 live sessions per user, so tokens are
// cached in .local/bench/logins.json and reused while their session is valid;
// a token that the end-to-end tests' shared login cached is reused too.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expectStatus, request } from './http.mjs';

export async function loginAll(emails, { gateway, maildev, cacheFile }) {
  const cache = await readJson(cacheFile);
  const e2eCache = await readJson(join(tmpdir(), `folio-e2e-logins-${gateway.replace(/[^A-Za-z0-9]+/g, '_')}.json`));
  const tokens = new Map();
  let fresh = 0;
  // A few at a time: identity sends each code through SMTP.
  for (let i = 0; i < emails.length; i += 4) {
    await Promise.all(
      emails.slice(i, i + 4).map(async (email) => {
        for (const cached of [cache[email], e2eCache[email]]) {
          if (cached && (await stillValid(gateway, cached.access_token))) {
            tokens.set(email, cached.access_token);
            return;
          }
        }
        const accessToken = await loginByEmail(email, { gateway, maildev });
        cache[email] = { access_token: accessToken, obtained_at: Date.now() };
        tokens.set(email, accessToken);
        fresh += 1;
      }),
    );
  }
  await mkdir(dirname(cacheFile), { recursive: true });
  await writeFile(cacheFile, JSON.stringify(cache, null, 1));
  return { tokens: emails.map((email) => ({ email, token: tokens.get(email) })), fresh };
}

async function stillValid(gateway, jwt) {
  try {
    const exp = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')).exp * 1000;
    // The token must outlive a whole run.
    if (exp < Date.now() + 15 * 60_000) return false;
    return (await request(gateway, 'GET', '/api/v2/auth/session/validate', { token: jwt })).status === 200;
  } catch {
    return false;
  }
}

async function loginByEmail(email, { gateway, maildev }) {
  const before = (await emailsTo(maildev, email)).length;
  await expectStatus(gateway, 201, 'POST', '/api/v2/login/token/init', { body: { email }, headers: { 'x-app-lang': 'en' } });
  const deadline = Date.now() + 15_000;
  let mail;
  while (!(mail = (await emailsTo(maildev, email))[before])) {
    if (Date.now() > deadline) throw new Error(`no login e-mail to ${email} in MailDev (${maildev})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const code = mail.text.match(/(?<!\d)\d{8}(?!\d)/)?.[0];
  if (!code) throw new Error(`no 8-digit code in the e-mail to ${email}`);
  const validated = await expectStatus(gateway, 200, 'POST', '/api/v2/login/token/validate', { body: { email, code } });
  return validated.body.access_token;
}

async function emailsTo(maildev, address) {
  const response = await fetch(`${maildev}/email`);
  if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
  const all = await response.json();
  return all.filter((mail) => mail.to.some((to) => to.address.toLowerCase() === address));
}

async function readJson(path) {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return {};
  }
}

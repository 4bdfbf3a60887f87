// The secrets no log line may carry: a login code, a password, a token or an
// Authorization header, one level down in whatever object a line logs
// (`{ body: { refresh_token } }`), and a request's Authorization header.
//
// This is what pino's `redact: ['*.password', ...]` did, done as its
// `formatters.log` hook instead. pino hands every value of a line, strings
// and numbers included, to the redactor of a path that starts with `*`, and
// @pinojs/redact (pino ≥ 9.10) re-parses each path, character by character,
// on every call: 13-17 µs per access line of the gateway against 3-4 µs
// without it (bench/logging), and 12 % of all the bytes the gateway
// allocated under load (a heap sampling profile). Here a line costs a loop
// over its keys, and a copy only when a secret is there.
//
// An Error is left whole: pino's err serializer writes it, and its `code` is
// an error code (ECONNRESET, 14), which the old wildcard hid as well.

export const CENSOR = '[redacted]';

/** Keys whose value is a secret, wherever a logged object has them at its top level. */
export const SECRET_KEYS: readonly string[] = ['password', 'code', 'refresh_token', 'access_token', 'authorization'];

type Fields = Record<string, unknown>;

/** pino's `formatters.log`: the line itself when it holds no secret, else a copy with each one censored. */
export function censorSecrets(line: Fields): Fields {
  let censored: Fields | undefined;
  for (const key in line) {
    const value = line[key];
    const replaced = key === 'req' ? censorRequest(value) : censorFields(value);
    if (replaced !== value) (censored ??= { ...line })[key] = replaced;
  }
  return censored ?? line;
}

function censorFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Error) return value;
  const fields = value as Fields;
  let copy: Fields | undefined;
  for (const secret of SECRET_KEYS) {
    if (Object.hasOwn(fields, secret)) (copy ??= { ...fields })[secret] = CENSOR;
  }
  return copy ?? value;
}

/** `req` as pino-http and express log it: its own secret keys, and `req.headers.authorization`. */
function censorRequest(value: unknown): unknown {
  const censored = censorFields(value);
  if (censored === value && (typeof value !== 'object' || value === null)) return value;
  const request = censored as Fields;
  const headers = request.headers;
  if (typeof headers !== 'object' || headers === null || !Object.hasOwn(headers, 'authorization')) return censored;
  return { ...request, headers: { ...(headers as Fields), authorization: CENSOR } };
}

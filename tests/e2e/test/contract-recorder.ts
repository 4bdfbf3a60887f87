// Every answer the end-to-end tests receive through `api()` is written down
// (method, path, status, and a JSON body), one file per worker under
// .local/contract/. After the run, tests/e2e/contract checks each of them
// against the OpenAPI document the gateway publishes: the hundreds of real
// requests of the suite are the contract test, so a drift between the
// document and the behaviour fails CI wherever a test exercises it.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CONTRACT_DIR = process.env.E2E_CONTRACT_DIR ?? join(import.meta.dirname, '..', '..', '..', '.local', 'contract');
const MAX_BODY = 256 * 1024;
let ready = false;

export interface RecordedExchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  /** The body when it is JSON and not huge. */
  body?: string;
}

export function recordExchange(method: string, path: string, status: number, contentType: string | null, text: string): void {
  if (process.env.E2E_CONTRACT === 'off') return;
  try {
    if (!ready) {
      mkdirSync(CONTRACT_DIR, { recursive: true });
      ready = true;
    }
    const type = contentType ?? '';
    const json = /[/+]json\b/.test(type) && text.length <= MAX_BODY;
    const line: RecordedExchange = { method: method.toLowerCase(), path, status, contentType: type, ...(json && { body: text }) };
    appendFileSync(join(CONTRACT_DIR, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  } catch {
    // Recording must never fail a test; the contract check reports what it has.
  }
}

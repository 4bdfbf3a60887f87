import { randomBytes } from 'node:crypto';

/** A name no other test file uses: databases, queues, exchanges, e-mail addresses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${uniqueName(prefix).toLowerCase()}@test.example.com`;
}

// The envelope every domain event travels in, shared by publishers and
// consumers so that ids, types and versions mean the same thing everywhere.
import { randomUUID } from 'node:crypto';

export interface DomainEvent<P = unknown> {
  /** Unique per event; consumers deduplicate on it, so a retried publish keeps it. */
  id: string;
  /** Also the routing key, e.g. `account.deleted`. */
  type: string;
  /** Version of the payload's shape, so consumers can accept old and new side by side. */
  version: number;
  occurred_at: string;
  tenant_id?: number;
  payload: P;
}

export function createEvent<P>(type: string, payload: P, options: { tenantId?: number; version?: number; id?: string } = {}): DomainEvent<P> {
  if (!type) throw new Error('an event needs a type');
  return {
    id: options.id ?? randomUUID(),
    type,
    version: options.version ?? 1,
    occurred_at: new Date().toISOString(),
    ...(options.tenantId !== undefined && { tenant_id: options.tenantId }),
    payload,
  };
}

/**
 * Reads an event off the wire. A message without an id and a type cannot be
 * deduplicated or routed, so it is reported as malformed rather than guessed at.
 */
export function parseEvent(content: Buffer): { event: DomainEvent } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(content.toString('utf8'));
  } catch {
    return { error: 'body is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'body is not a JSON object' };
  const fields = value as Record<string, unknown>;
  if (typeof fields.id !== 'string' || !fields.id) return { error: 'event has no id' };
  if (typeof fields.type !== 'string' || !fields.type) return { error: 'event has no type' };
  return {
    event: {
      ...(fields as Partial<DomainEvent>),
      id: fields.id,
      type: fields.type,
      version: typeof fields.version === 'number' ? fields.version : 1,
      occurred_at: typeof fields.occurred_at === 'string' ? fields.occurred_at : '',
      payload: fields.payload,
    },
  };
}

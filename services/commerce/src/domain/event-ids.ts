import { createHash } from 'node:crypto';

/**
 * A UUID-shaped event id determined by what the event is about (an order id):
 * recording the same event again is a no-op in the outbox, and consumers see
 * one id however often it is delivered.
 */
export function derivedEventId(sourceId: string, type: string): string {
  const hex = createHash('sha256').update(`${sourceId}\n${type}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

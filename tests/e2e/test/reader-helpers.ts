// Helpers of the reader and notes end-to-end tests: opening reader sessions
// through the gateway, fetching the content URLs they return (through the
// gateway's /media proxy), and — where the gateway exposes nothing to observe —
// read-only gRPC clients of the running reader and notes services.
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { notes, reader } from '@folio/proto';
import { api as clientApi, type ApiResponse } from './client.js';
export { sharedLogin } from './client.js';

export const STORE = { 1: 'northwind.localhost:8080', 2: 'sur.localhost:8080' } as const;

/**
 * This test file's own client address (TEST-NET-1; the gateway trusts the
 * loopback proxy locally), so that the gateway's per-IP limit (600 requests a
 * minute) counts each file apart instead of every test of the machine together.
 */
export const FILE_IP = { 'x-forwarded-for': `192.0.2.${1 + Math.floor(Math.random() * 254)}` };

/** `api` of client.ts from this file's client address. */
export function api<T = any>(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  return clientApi<T>(method, path, { ...options, headers: { ...FILE_IP, ...options.headers } });
}

/** Headers of a v2 single-tenant reader call. */
export function v2(tenantId: number, readerToken?: string): Record<string, string> {
  return { 'x-svc-tenant-id': String(tenantId), ...(readerToken && { 'reader-token': readerToken }) };
}

export interface ReaderSessionBody {
  token: string;
  cover: string;
  table_of_contents: unknown[];
  custom_preview: boolean;
  file_url: string | null;
  files_urls: string[] | null;
  files_info: { width: number; height: number }[] | null;
  articles: unknown[] | null;
  spine: { href: string; idref: string }[] | null;
  total_words: number | null;
  tracks: { title: string; url: string; duration: number }[] | null;
  id?: number;
}

export async function openSession(
  jwt: string,
  tenantId: number,
  issueId: number,
  { preview, readerToken }: { preview?: boolean; readerToken?: string } = {},
): Promise<ApiResponse<ReaderSessionBody>> {
  return api<ReaderSessionBody>('POST', `/api/v2/reader/${issueId}/sessions${preview ? '?preview=true' : ''}`, {
    token: jwt,
    headers: v2(tenantId, readerToken),
  });
}

/** A session that must open; its body. */
export async function session(jwt: string, tenantId: number, issueId: number, options: { preview?: boolean } = {}): Promise<ReaderSessionBody> {
  const response = await openSession(jwt, tenantId, issueId, options);
  if (response.status !== 200) throw new Error(`session ${tenantId}/${issueId} answered ${response.status}: ${response.text}`);
  return response.body;
}

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GETs a content URL as a client would (the URLs point at the gateway). */
export async function fetchContent(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const response = await fetch(url, { headers: { ...FILE_IP, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Width and height from a PNG's signature and IHDR chunk; throws when it is no PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('ascii', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Read-only views of the services where the gateway offers no route (yet) to observe a result. */
export const READER_ADDR = process.env.E2E_READER_ADDR ?? '127.0.0.1:50054';
export const NOTES_ADDR = process.env.E2E_NOTES_ADDR ?? '127.0.0.1:50055';

export function readerClient(): PromiseClient<reader.ReaderServiceClient> {
  return createPromiseClient(reader.ReaderServiceClient, READER_ADDR, { defaultDeadlineMs: 5_000 });
}

export function notesClient(): PromiseClient<notes.NotesServiceClient> {
  return createPromiseClient(notes.NotesServiceClient, NOTES_ADDR, { defaultDeadlineMs: 5_000 });
}

/** The user id in an access token's `sub`. */
export function userIdOf(jwt: string): number {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return Number(payload.sub);
}

/**
 * The reader-token with one character changed in the middle of its ciphertext,
 * where every character carries 6 real bits (changing the last character of a
 * part may touch only padding bits, which the reader refuses too, but then the
 * test would prove the canonical-spelling rule instead of the integrity check).
 */
export function corruptReaderToken(token: string): string {
  const parts = token.split('.');
  const ciphertext = parts[3]!;
  const middle = Math.floor(ciphertext.length / 2);
  parts[3] = `${ciphertext.slice(0, middle)}${ciphertext[middle] === 'A' ? 'B' : 'A'}${ciphertext.slice(middle + 1)}`;
  return parts.join('.');
}

// Routes whose request body is a file (a publisher's content upload): the
// body is never parsed or buffered; the handler reads it as a stream of
// chunks of at most 1 MiB, at the pace its upstream takes them. A declared
// Content-Length over the limit is refused before a byte is read (413); a
// body without one is counted as it streams and stopped once it passes.
// Any answer sent before the whole body was read (a refusal, an upstream's
// error) closes the connection: the rest of the body is never read to keep
// the connection alive.
import type { Request } from 'express';
import { DomainError } from '@folio/errors';
import { httpError } from './errors.js';
import type { RawBodySpec, RawUpload } from './route.js';

/** The largest chunk handed on: one gRPC message of reader's UploadContent. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

const MB = 1024 * 1024;
const formatMb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** Checks the declared type and length of a raw body; what the handler streams it through. */
export function rawUploadOf(req: Request, spec: RawBodySpec, maxBytes: number): RawUpload {
  req.res?.setHeader('Connection', 'close');
  const mediaType = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!spec.mediaTypes.includes(mediaType)) {
    throw httpError(415, `Send the file with one of these Content-Types: ${spec.mediaTypes.join(', ')}.`, {
      'Content-Type': [mediaType ? `${mediaType} is not accepted` : 'is required'],
    });
  }
  const lengthHeader = req.get('content-length');
  let declaredBytes = 0;
  if (lengthHeader !== undefined) {
    if (!/^\d{1,16}$/.test(lengthHeader.trim())) throw httpError(400, 'Content-Length must be a number of bytes.');
    declaredBytes = Number(lengthHeader.trim());
  }
  const tooLarge = () => httpError(413, `The file is larger than the ${formatMb(maxBytes)} allowed for one upload.`);
  if (declaredBytes > maxBytes) throw tooLarge();
  if (lengthHeader !== undefined && declaredBytes === 0) throw httpError(422, 'The file is empty.', { file: ['is empty'] });
  let taken = false;
  return {
    mediaType,
    declaredBytes,
    maxBytes,
    chunks() {
      if (taken) throw new Error('the request body is read once');
      taken = true;
      return chunked(req, maxBytes, tooLarge, () => req.res?.removeHeader('Connection'));
    },
  };
}

/**
 * The request body, read as it is taken. A client that goes away mid-upload
 * is the client's failure (400), never counted against the upstream the body
 * was streaming to.
 */
async function* chunked(req: Request, maxBytes: number, tooLarge: () => Error, whole: () => void): AsyncGenerator<Buffer> {
  try {
    yield* recut(req, maxBytes, tooLarge);
    whole();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw httpError(400, 'The upload was interrupted before the whole file arrived.');
  }
}

/** The request body re-cut into chunks of at most UPLOAD_CHUNK_BYTES, failing once it passes `maxBytes`. */
async function* recut(req: Request, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  // Not destroyed when the reading stops early: the answer (413) still goes out on the socket.
  for await (const piece of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    total += piece.length;
    if (total > maxBytes) throw tooLarge();
    let rest = piece;
    while (pendingBytes + rest.length >= UPLOAD_CHUNK_BYTES) {
      const take = UPLOAD_CHUNK_BYTES - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending, UPLOAD_CHUNK_BYTES);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

// Who is calling, as the gateway established it: the verified reader-token's
// tenant, user and issue, the raw token (the text encryption key is derived
// from it), whether the text arrives encrypted and the tenant settings
// integrations needs.
import { DomainError } from '@folio/errors';

export interface ReaderSession {
  id: string;
  preview: boolean;
  /** A preview's last page, chapter or track. */
  previewLimit: number | undefined;
}

export interface Caller {
  tenantId: number;
  userId: number;
  issueId: number;
  readerToken: string;
  /** The verified reader session: the reader's in-issue search runs in it, within its preview share. */
  session: ReaderSession;
  /** Whether the client sent the text encrypted with the reader session key (else as typed). */
  textEncrypted: boolean;
  tenantLang: string;
  ttsEnabled: boolean;
  /** X-App-Lang, when sent: the preferred default translation target. */
  appLang?: string | undefined;
}

/** A call without a usable caller is a wiring bug of the caller, never the client's fault. */
export function checkCaller(caller: Caller | undefined): Caller {
  if (!caller || caller.tenantId <= 0 || caller.userId <= 0 || caller.readerToken.length === 0) {
    throw new DomainError('FAILED_PRECONDITION', 'The caller context (tenant, user, reader-token) is missing.', { reason: 'CALLER_CONTEXT_MISSING' });
  }
  return caller;
}

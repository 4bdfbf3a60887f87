// The notes use cases: list, read, create (idempotent per uuid), change color
// and comment, delete. Every call acts for one reader session's scope; a note
// of another user is refused with 403 (the spec's rule), one of the same user
// outside the session's tenant and issue is not found, like a missing one.
import { invalidArgument } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { noteNotFound, notYourNote } from './errors.js';
import type { Note, NoteScope } from './note.js';
import type { NoteRepository } from './repositories.js';
import { validateChange, validateDraft, type NoteDraft } from './rules.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A comment change as the client asked for it: absent keeps, null clears, a string replaces. */
export interface NoteUpdate {
  color?: string | undefined;
  annotationText?: { value: string | null } | undefined;
}

export class Notes {
  constructor(
    private readonly repository: NoteRepository,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  list(scope: NoteScope): Promise<Note[]> {
    return this.repository.list(scope);
  }

  /** Every note of a user, in every tenant and issue (the user's own export). */
  listAllOf(userId: number): Promise<Note[]> {
    if (!Number.isSafeInteger(userId) || userId <= 0) throw invalidArgument('The user id is required.');
    return this.repository.listAllOf(userId);
  }

  get(scope: NoteScope, id: number): Promise<Note> {
    return this.owned(scope, id);
  }

  /**
   * Creates the note, or returns the scope's note with the same uuid unchanged
   * (`created: false`): a client retrying a create it never saw answered gets
   * the same note, not a duplicate. The uuid is claimed by a unique index, so
   * concurrent retries also end with one note. The insert goes first: a new
   * note (nearly every create) costs one write and no read; only a uuid
   * already taken looks the existing note up.
   */
  async create(scope: NoteScope, draft: NoteDraft): Promise<{ note: Note; created: boolean }> {
    const content = validateDraft(draft);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const note: Note = { ...content, id: await this.repository.nextId(), scope, createdAt: now, updatedAt: now };
      if (await this.repository.insert(note)) {
        this.logger.info({ note_id: note.id, issue_id: scope.issueId }, 'note created');
        return { note, created: true };
      }
      // The uuid is taken in this scope (a retry, or a concurrent create): its
      // note is the answer; if it was deleted meanwhile, the loop tries again.
      const existing = await this.repository.findByUuid(scope, content.uuid);
      if (existing) return { note: existing, created: false };
    }
    throw new Error(`note uuid kept colliding in scope ${scope.tenantId}/${scope.userId}/${scope.issueId}`);
  }

  /** Changes color (required) and comment; text and position are immutable. */
  async update(scope: NoteScope, id: number, update: NoteUpdate): Promise<Note> {
    const change = { color: update.color, annotationText: update.annotationText?.value };
    validateChange(change);
    await this.owned(scope, id);
    const updated = await this.repository.update(scope, id, {
      color: update.color!,
      ...(update.annotationText && { annotationText: update.annotationText.value }),
      updatedAt: this.clock.now(),
    });
    if (!updated) throw noteNotFound(); // deleted between the check and the write
    return updated;
  }

  async delete(scope: NoteScope, id: number): Promise<Note> {
    await this.owned(scope, id);
    const deleted = await this.repository.delete(scope, id);
    if (!deleted) throw noteNotFound(); // a concurrent delete won
    this.logger.info({ note_id: id, issue_id: scope.issueId }, 'note deleted');
    return deleted;
  }

  /** The note if it is in the scope; 403 when another user's, 404 when missing or outside the session's tenant and issue. */
  private async owned(scope: NoteScope, id: number): Promise<Note> {
    const note = Number.isInteger(id) && id > 0 ? await this.repository.findById(id) : null;
    if (!note) throw noteNotFound();
    if (note.scope.userId !== scope.userId) throw notYourNote();
    if (note.scope.tenantId !== scope.tenantId || note.scope.issueId !== scope.issueId) throw noteNotFound();
    return note;
  }
}

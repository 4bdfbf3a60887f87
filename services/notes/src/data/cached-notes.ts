// The notes of one reader in one issue, kept in memory: every page of the
// reader engine asks for them (GET /reader/notes, v1 /notes), and they change
// only through this service. A write drops the scope's entry here at once and,
// through notes.changed on the service's exchange, the user's entries on every other replica
// (events/cache-invalidation.ts); NOTES_CACHE_TTL_MS bounds what a lost event
// can cost. Writes, uuid lookups and erasure go to the store as before.
import { ReferenceCache } from '@folio/messaging';
import type { Note, NoteChange, NoteScope } from '../domain/note.js';
import type { NoteRepository } from '../domain/repositories.js';

/** What a write outdates: one scope, or (erasure) every scope of a user. This replica drops that; the others drop all of the user's lists. */
export interface NotesChange {
  userId: number;
  scope?: NoteScope;
}

const keyOf = (scope: NoteScope) => `${scope.tenantId}:${scope.userId}:${scope.issueId}`;

export class CachedNoteRepository implements NoteRepository {
  private readonly lists: ReferenceCache<string, Note[]>;

  constructor(
    private readonly store: NoteRepository,
    settings: { ttlMs: number; maxEntries: number },
    /** Tells the other replicas; set once the broker is there. */
    public announce: (change: NotesChange) => void = () => {},
  ) {
    this.lists = new ReferenceCache(settings);
  }

  nextId(): Promise<number> {
    return this.store.nextId();
  }

  async insert(note: Note): Promise<boolean> {
    try {
      return await this.store.insert(note);
    } finally {
      this.changed({ userId: note.scope.userId, scope: note.scope });
    }
  }

  findByUuid(scope: NoteScope, uuid: string): Promise<Note | null> {
    return this.store.findByUuid(scope, uuid);
  }

  findById(id: number): Promise<Note | null> {
    return this.store.findById(id);
  }

  async list(scope: NoteScope): Promise<Note[]> {
    return [...(await this.lists.get(keyOf(scope), () => this.store.list(scope)))];
  }

  async update(scope: NoteScope, id: number, change: NoteChange): Promise<Note | null> {
    try {
      return await this.store.update(scope, id, change);
    } finally {
      this.changed({ userId: scope.userId, scope });
    }
  }

  async delete(scope: NoteScope, id: number): Promise<Note | null> {
    try {
      return await this.store.delete(scope, id);
    } finally {
      this.changed({ userId: scope.userId, scope });
    }
  }

  listAllOf(userId: number): Promise<Note[]> {
    return this.store.listAllOf(userId);
  }

  async deleteAllOf(userId: number): Promise<number> {
    try {
      return await this.store.deleteAllOf(userId);
    } finally {
      this.changed({ userId });
    }
  }

  /** Drops what a change makes stale, here only (the other replicas hear it through `announce`). */
  forget(change?: NotesChange): void {
    if (!change) return this.lists.clear();
    if (change.scope) return this.lists.delete(keyOf(change.scope));
    this.lists.deleteWhere((key) => key.split(':')[1] === String(change.userId));
  }

  private changed(change: NotesChange): void {
    this.forget(change);
    this.announce(change);
  }
}

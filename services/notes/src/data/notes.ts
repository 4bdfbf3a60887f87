// The notes repository: documents in, plain domain objects out. Every query
// of one scope is built from the full scope (tenant, user, issue), so a query
// cannot forget the tenant.
import { insertBatcherOf, isDuplicateKeyError, nextSequence, type Connection, type InsertBatcher } from '@folio/mongo';
import type { Model } from 'mongoose';
import type { EpubLocation, Note, NoteChange, NoteScope } from '../domain/note.js';
import type { NoteRepository } from '../domain/repositories.js';
import type { NoteDoc } from './schemas.js';

type ScopeFilter = Pick<NoteDoc, 'tenant_id' | 'user_id' | 'issue_id'>;

const scopeFilter = (scope: NoteScope): ScopeFilter => ({ tenant_id: scope.tenantId, user_id: scope.userId, issue_id: scope.issueId });

function toDoc(note: Note): NoteDoc {
  const location = note.epubLocation;
  return {
    _id: note.id,
    ...scopeFilter(note.scope),
    uuid: note.uuid,
    color: note.color,
    total_length: note.totalLength,
    total_text: note.totalText,
    annotation_text: note.annotationText,
    start_page: note.startPage,
    start_page_start_offset: note.startPageStartOffset,
    start_page_length: note.startPageLength,
    end_page: note.endPage,
    end_page_length: note.endPageLength,
    epub_location_start_cfi: note.epubLocationStartCfi,
    epub_location_end_cfi: note.epubLocationEndCfi,
    epub_chapter: note.epubChapter,
    epub_location_start_char: note.epubLocationStartChar,
    epub_location_list: location?.form === 'list' ? location.items : null,
    epub_location_text: location?.form === 'text' ? location.text : null,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
  };
}

function fromDoc(doc: NoteDoc): Note {
  let epubLocation: EpubLocation | null = null;
  if (Array.isArray(doc.epub_location_list)) epubLocation = { form: 'list', items: doc.epub_location_list };
  else if (typeof doc.epub_location_text === 'string') epubLocation = { form: 'text', text: doc.epub_location_text };
  return {
    id: doc._id,
    scope: { tenantId: doc.tenant_id, userId: doc.user_id, issueId: doc.issue_id },
    uuid: doc.uuid,
    color: doc.color,
    totalLength: doc.total_length,
    totalText: doc.total_text,
    annotationText: doc.annotation_text ?? null,
    startPage: doc.start_page ?? null,
    startPageStartOffset: doc.start_page_start_offset ?? null,
    startPageLength: doc.start_page_length ?? null,
    endPage: doc.end_page ?? null,
    endPageLength: doc.end_page_length ?? null,
    epubLocationStartCfi: doc.epub_location_start_cfi ?? null,
    epubLocationEndCfi: doc.epub_location_end_cfi ?? null,
    epubChapter: doc.epub_chapter ?? null,
    epubLocationStartChar: doc.epub_location_start_char ?? null,
    epubLocation,
    createdAt: new Date(doc.created_at),
    updatedAt: new Date(doc.updated_at),
  };
}

export class MongoNoteRepository implements NoteRepository {
  // Notes created at the same moment are stored together (group commit, @folio/mongo).
  private readonly inserts: InsertBatcher<NoteDoc>;

  constructor(
    private readonly connection: Connection,
    private readonly model: Model<NoteDoc>,
  ) {
    this.inserts = insertBatcherOf(model);
  }

  nextId(): Promise<number> {
    return nextSequence(this.connection, 'notes');
  }

  async insert(note: Note): Promise<boolean> {
    try {
      // Written as is: the domain validated it, and mongoose casting must not turn nulls into defaults.
      await this.inserts.insert(toDoc(note));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async findByUuid(scope: NoteScope, uuid: string): Promise<Note | null> {
    const doc = await this.model
      .findOne({ ...scopeFilter(scope), uuid })
      .lean<NoteDoc>()
      .exec();
    return doc ? fromDoc(doc) : null;
  }

  async findById(id: number): Promise<Note | null> {
    const doc = await this.model.findById(id).lean<NoteDoc>().exec();
    return doc ? fromDoc(doc) : null;
  }

  async list(scope: NoteScope): Promise<Note[]> {
    const docs = await this.model.find(scopeFilter(scope)).sort({ created_at: 1, _id: 1 }).lean<NoteDoc[]>().exec();
    return docs.map(fromDoc);
  }

  async update(scope: NoteScope, id: number, change: NoteChange): Promise<Note | null> {
    const set: Partial<NoteDoc> = { color: change.color, updated_at: change.updatedAt };
    if (change.annotationText !== undefined) set.annotation_text = change.annotationText;
    const doc = await this.model
      .findOneAndUpdate({ _id: id, ...scopeFilter(scope) }, { $set: set }, { returnDocument: 'after' })
      .lean<NoteDoc>()
      .exec();
    return doc ? fromDoc(doc) : null;
  }

  async delete(scope: NoteScope, id: number): Promise<Note | null> {
    const doc = await this.model
      .findOneAndDelete({ _id: id, ...scopeFilter(scope) })
      .lean<NoteDoc>()
      .exec();
    return doc ? fromDoc(doc) : null;
  }

  async listAllOf(userId: number): Promise<Note[]> {
    const docs = await this.model.find({ user_id: userId }).sort({ tenant_id: 1, issue_id: 1, created_at: 1, _id: 1 }).lean<NoteDoc[]>().exec();
    return docs.map(fromDoc);
  }

  async deleteAllOf(userId: number): Promise<number> {
    const result = await this.model.deleteMany({ user_id: userId }).exec();
    return result.deletedCount;
  }
}

// The fields every ContentManifest of the domain's unit tests shares: issue 1
// of tenant 1, no content of any type yet. A test spreads it and adds its
// type and that type's content.
import type { ContentManifest } from '../../src/domain/repositories.js';

export const MANIFEST_BASE = {
  _id: '1:1',
  tenant_id: 1,
  issue_id: 1,
  title: 't',
  lang: null,
  cover_key: '',
  thumbnail_key: '',
  source_hash: null,
  text_index_key: null,
  sections: 0,
  ingested_at: new Date(0),
  epub: null,
  pdf: null,
  audio: null,
} satisfies Omit<ContentManifest, 'type'>;

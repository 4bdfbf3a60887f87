// Which stored content versions of an issue stay: the live one (readers in a
// session hold its keys) and the one being ingested; every older version goes
// before a new ingest starts, so an issue keeps at most two versions plus the
// upload waiting for its turn. Content stored in the issue's folder itself
// (the seed's layout) counts as a version of its own while it is live.
import { contentFolder } from '../ingest/ingest.js';
import type { ContentManifest } from '../domain/repositories.js';
import type { ContentStorage } from '../storage/storage.js';

/** Folders of `<tenant>/<issue>` that are not content files. */
const OWN_FOLDERS = new Set(['v', 'uploads']);

export async function pruneVersions(
  storage: ContentStorage,
  live: Pick<ContentManifest, 'tenant_id' | 'issue_id' | 'content_version' | 'text_index_key'> | null,
  tenantId: number,
  issueId: number,
  incoming: string,
): Promise<void> {
  const folder = contentFolder(tenantId, issueId);
  const keep = new Set([incoming, ...(live?.content_version ? [live.content_version] : [])]);
  for (const version of await storage.list(`${folder}/v`)) {
    if (!keep.has(version)) await storage.deletePrefix(`${folder}/v/${version}`);
  }
  // The seed's layout stays only while it is what readers get.
  if (live && !live.content_version) return;
  for (const name of await storage.list(folder)) {
    if (!OWN_FOLDERS.has(name)) await storage.deletePrefix(`${folder}/${name}`);
  }
  // Text indexes are content-addressed files of one folder: the live one stays.
  const indexFolder = `_index/${tenantId}/${issueId}`;
  const liveIndex = live?.text_index_key?.split('/').at(-1);
  for (const name of await storage.list(indexFolder)) {
    if (name !== liveIndex) await storage.deletePrefix(`${indexFolder}/${name}`);
  }
}

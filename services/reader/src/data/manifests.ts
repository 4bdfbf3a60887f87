// Content manifests of tenant content over the document store: a summary and
// a structure per issue (data/schemas.ts), with this replica's cache. Every
// read of a manifest names the tenant; covers are looked up by issue id.
import type { ReferenceCache } from '@folio/messaging';
import type { Model } from 'mongoose';
import type { IssueKey, ManifestRepository } from '../domain/repositories.js';
import { readThroughCache } from './read-through-cache.js';
import type { ManifestDoc, StructureDoc } from './schemas.js';
import { upsertById } from './upsert-by-id.js';

type ManifestSummary = Omit<ManifestDoc, 'epub' | 'pdf' | 'audio'>;

/** A manifest's id and the fields it is read by, from the whole key: a read cannot leave out the tenant. */
const issueFilter = (issue: IssueKey) => ({ _id: `${issue.tenantId}:${issue.issueId}`, tenant_id: issue.tenantId, issue_id: issue.issueId });

/**
 * Manifests change only when content is ingested, which is rare and usually
 * another process (the seed): with a cache, sessions, settings and searches
 * read them from memory; an ingest in this process drops the entry, one in
 * another process shows within the cache's TTL. Absent manifests are never
 * cached.
 */
export interface ManifestCache {
  summaries: ReferenceCache<string, ManifestSummary>;
  structures: ReferenceCache<string, StructureDoc>;
  /** Cover keys by issue id: every cover request asks, by a field FerretDB cannot look up without reading every manifest. */
  coverKeys?: ReferenceCache<number, string>;
}

export class MongoManifestRepository implements ManifestRepository {
  constructor(
    private readonly model: Model<ManifestSummary>,
    private readonly structures: Model<StructureDoc>,
    private readonly cache?: ManifestCache,
  ) {}

  /** The whole manifest, structure included. */
  async find(issue: IssueKey): Promise<ManifestDoc | null> {
    const summary = await this.findSummary(issue);
    if (!summary) return null;
    const loadStructure = () => this.structures.findOne({ _id: summary._id }).lean<StructureDoc>().exec();
    const structure = await readThroughCache(this.cache?.structures, summary._id, loadStructure);
    return { ...summary, epub: structure?.epub ?? null, pdf: structure?.pdf ?? null, audio: structure?.audio ?? null };
  }

  /** The manifest without its structure (`epub`, `pdf`, `audio` null): type, keys, text index. */
  async findSummary(issue: IssueKey): Promise<ManifestDoc | null> {
    const filter = issueFilter(issue);
    const summary = await readThroughCache(this.cache?.summaries, filter._id, () => this.model.findOne(filter).lean<ManifestSummary>().exec());
    return summary ? { ...summary, epub: null, pdf: null, audio: null } : null;
  }

  /** By issue id alone: issue ids are unique across tenants, and the catalog's cover URL template has no tenant. */
  async coverKeyOf(issueId: number): Promise<string | null> {
    const load = async () => {
      const found = await this.model.findOne({ issue_id: issueId }, { cover_key: 1 }).lean<Pick<ManifestDoc, 'cover_key'>>().exec();
      return found?.cover_key ?? null;
    };
    return this.cache?.coverKeys ? this.cache.coverKeys.getPresent(issueId, load) : load();
  }

  /** Structure first: a summary is never visible without its structure. */
  async save(manifest: ManifestDoc): Promise<void> {
    const { epub, pdf, audio, ...summary } = manifest;
    await upsertById(this.structures, manifest._id, { _id: manifest._id, epub, pdf, audio });
    await upsertById(this.model, manifest._id, summary);
    this.cache?.summaries.delete(manifest._id);
    this.cache?.structures.delete(manifest._id);
    this.cache?.coverKeys?.delete(manifest.issue_id);
  }
}

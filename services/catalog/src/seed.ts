// Loads the demo dataset's catalog part (issues with their metadata, tags and
// collection membership; the tenants' collections in dataset order) into
// catalog's database. Idempotent: re-running changes only what differs from
// the dataset and never duplicates. Prices, free/sale/licensing and access
// belong to commerce; content files to reader.
//   node dist/seed.js            (FIXTURES_PATH overrides the dataset file)
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connectMongo, type Connection } from '@folio/mongo';
import { loadCatalogConfig } from './config.js';
import { openCatalogRepositories } from './data/index.js';
import type { CatalogSync } from './domain/catalog-sync.js';
import { CatalogIngest, type IngestSummary } from './domain/ingest.js';
import type { CollectionInput, IssueInput } from './domain/repositories.js';

export interface DatasetIssue {
  id: number;
  tenant_id: number;
  name: string;
  slug: string;
  type: string;
  lang: string;
  author: string;
  publisher: string;
  bisac: string;
  external_id: string;
  /** `YYYY-MM-DD hh:mm:ss`, UTC. */
  published_at: string;
  number_of_pages: number | null;
  description: string;
  tags?: { author?: string[]; keyword?: string[]; edition?: string[] };
  collections?: string[];
  cover_url?: string | null;
}

export interface DatasetCollection {
  tenant_id: number;
  slug: string;
  title: Record<string, string>;
}

export interface CatalogDataset {
  collections: DatasetCollection[];
  issues: DatasetIssue[];
}

/** `YYYY-MM-DD hh:mm:ss` (UTC) or any ISO 8601 string. */
export function parseDatasetDate(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? `${value.replace(' ', 'T')}Z` : value);
  if (Number.isNaN(date.getTime())) throw new Error(`invalid date ${value}`);
  return date;
}

export function issueInput(issue: DatasetIssue): IssueInput {
  return {
    _id: issue.id,
    tenant_id: issue.tenant_id,
    name: issue.name.normalize('NFC'),
    slug: issue.slug,
    type: issue.type,
    lang: issue.lang ?? '',
    author: (issue.author ?? '').normalize('NFC'),
    publisher: (issue.publisher ?? '').normalize('NFC'),
    bisac: issue.bisac ?? '',
    external_id: issue.external_id ?? '',
    published_at: parseDatasetDate(issue.published_at),
    number_of_pages: typeof issue.number_of_pages === 'number' ? issue.number_of_pages : null,
    description: (issue.description ?? '').normalize('NFC'),
    tags: {
      author: issue.tags?.author ?? [],
      keyword: issue.tags?.keyword ?? [],
      edition: issue.tags?.edition ?? [],
    },
    collections: issue.collections ?? [],
    cover_url: issue.cover_url ?? null,
  };
}

export function collectionInputs(collections: DatasetCollection[]): CollectionInput[] {
  const positions = new Map<number, number>();
  return collections.map((collection) => {
    const position = positions.get(collection.tenant_id) ?? 0;
    positions.set(collection.tenant_id, position + 1);
    return { tenant_id: collection.tenant_id, slug: collection.slug, title: { ...collection.title }, position };
  });
}

/** Seeds catalog's part of a dataset; pass the running service's sync to update its view at once. */
export async function seedCatalog(connection: Connection, dataset: CatalogDataset, options: { sync?: CatalogSync } = {}): Promise<IngestSummary> {
  const store = await openCatalogRepositories(connection);
  return new CatalogIngest(store, options.sync).write({
    collections: collectionInputs(dataset.collections ?? []),
    issues: (dataset.issues ?? []).map(issueInput),
  });
}

async function main(): Promise<void> {
  const config = loadCatalogConfig();
  const path = config.FIXTURES_PATH ?? fileURLToPath(new URL('../../../fixtures/demo-dataset.json', import.meta.url));
  const dataset = JSON.parse(await readFile(path, 'utf8')) as CatalogDataset;
  const connection = await connectMongo(config.MONGO_URL);
  try {
    const { issues, collections } = await seedCatalog(connection, dataset);
    console.log(
      `catalog: seeded ${dataset.issues.length} issues (${issues.inserted} new, ${issues.updated} updated, ${issues.unchanged} unchanged) ` +
        `and ${dataset.collections.length} collections (${collections.inserted} new, ${collections.updated} updated, ${collections.unchanged} unchanged) from ${path}`,
    );
  } finally {
    await connection.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`catalog: seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

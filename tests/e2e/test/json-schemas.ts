// Validators from the published JSON Schemas vendored in
// tests/e2e/fixtures/schemas (OPDS 2.0, OPDS Progression 1.0 and the Readium
// Web Publication Manifest, all JSON Schema draft-07). Every file is registered under its own
// `$id`, so the cross-references between the two sets resolve without the
// network. `validate` returns ajv's errors in a readable form (empty: valid).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * The formats the vendored schemas use, checked as their RFCs say (ajv knows
 * none by itself; defined here rather than through another dependency).
 */
const FORMATS: Record<string, (value: string) => boolean> = {
  uri: (value) => URL.canParse(value),
  'uri-reference': (value) => !/\s/.test(value) && URL.canParse(value, 'http://base.invalid/'),
  'uri-template': (value) => /^([^{}\s]|\{[+#./;?&=,!@|]?[A-Za-z0-9_.%]+(:[1-9]\d{0,3}|\*)?(,[A-Za-z0-9_.%]+(:[1-9]\d{0,3}|\*)?)*\})*$/.test(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
  email: (value) => /^[^\s@]+@[^\s@]+$/.test(value),
};
// The OPDS Progression schema's name for a URI reference (not a JSON Schema format; see the schemas' README).
FORMATS['uri-references'] = FORMATS['uri-reference']!;

const ROOT = fileURLToPath(new URL('../fixtures/schemas/', import.meta.url));

export const SCHEMA = {
  opdsFeed: 'https://drafts.opds.io/schema/feed.schema.json',
  opdsPublication: 'https://drafts.opds.io/schema/publication.schema.json',
  opdsAuthentication: 'https://drafts.opds.io/schema/authentication.schema.json',
  opdsProgression: 'https://drafts.opds.io/schema/progression.schema.json',
  webpubManifest: 'https://readium.org/webpub-manifest/schema/publication.schema.json',
} as const;

function schemaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return schemaFiles(path);
    return name.endsWith('.schema.json') ? [path] : [];
  });
}

let ajv: Ajv | undefined;

function instance(): Ajv {
  if (ajv) return ajv;
  // strict: false because the published schemas use keywords ajv's strict mode
  // questions (e.g. `uniqueItems` beside `contains`); they are not ours to change.
  ajv = new Ajv({ strict: false, allErrors: true });
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  for (const file of schemaFiles(ROOT)) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

/** The schema errors of `document` against the schema with this `$id` (an empty list when it validates). */
export function schemaErrors(id: (typeof SCHEMA)[keyof typeof SCHEMA], document: unknown): string[] {
  let validate = compiled.get(id);
  if (!validate) {
    validate = instance().getSchema(id);
    if (!validate) throw new Error(`no vendored schema has the $id ${id}`);
    compiled.set(id, validate);
  }
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}

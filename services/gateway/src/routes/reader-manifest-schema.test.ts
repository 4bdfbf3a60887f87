// A rendered Web Publication Manifest with everything the file can declare
// (every creator, identifiers, layout, reading direction, accessibility)
// validates against Readium's published JSON Schemas, the copy vendored
// unchanged in tests/e2e/fixtures/schemas (webpub-manifest/ with its
// LICENSE, and opds/ its links refer to; the README says where from). The schemas are registered under their own `$id`, so no
// network is needed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reader } from '@folio/proto';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { publicationToWire } from '../render/reader.js';

// The whole vendored folder: Readium's link schema refers to OPDS's link properties.
const SCHEMAS = fileURLToPath(new URL('../../../../tests/e2e/fixtures/schemas/', import.meta.url));
const PUBLICATION = 'https://readium.org/webpub-manifest/schema/publication.schema.json';

function schemaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return schemaFiles(path);
    return name.endsWith('.schema.json') ? [path] : [];
  });
}

function validator() {
  // strict: false: the published schemas use keywords ajv's strict mode questions; they are not ours to change.
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('uri', { type: 'string', validate: (value: string) => URL.canParse(value) });
  ajv.addFormat('uri-reference', { type: 'string', validate: (value: string) => !/\s/.test(value) && URL.canParse(value, 'http://base.invalid/') });
  ajv.addFormat('uri-template', { type: 'string', validate: () => true });
  ajv.addFormat('date', { type: 'string', validate: (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) });
  ajv.addFormat('date-time', { type: 'string', validate: (value: string) => !Number.isNaN(Date.parse(value)) && /T/.test(value) });
  ajv.addFormat('email', { type: 'string', validate: (value: string) => /^[^\s@]+@[^\s@]+$/.test(value) });
  for (const file of schemaFiles(SCHEMAS)) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
  const validate = ajv.getSchema(PUBLICATION)!;
  return (document: unknown) => (validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`));
}

const link = (href: string, type: string, extra: Partial<reader.PublicationLink> = {}): reader.PublicationLink => ({
  href,
  type,
  title: undefined,
  duration: undefined,
  width: undefined,
  height: undefined,
  rel: [],
  children: [],
  ...extra,
});

const accessibility: reader.ContentAccessibility = {
  conformsTo: ['EPUB Accessibility 1.1 - WCAG 2.1 Level AA', 'http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa'],
  accessModes: ['textual', 'visual'],
  accessModesSufficient: ['textual', 'textual,visual'],
  features: ['tableOfContents', 'readingOrder', 'alternativeText', 'someToolsInventedFeature'],
  hazards: ['none'],
  summary: 'Text with described images.',
  certifiedBy: 'Northwind Accessibility Lab',
};

const fixedRtlBook: reader.Publication = {
  type: reader.PublicationType.PUBLICATION_TYPE_EPUB,
  preview: false,
  identifier: 'urn:folio:1:1001',
  title: 'كتاب الفنار',
  language: 'ar',
  authors: ['Layla Haddad', 'Omar Said'],
  publisher: 'Northwind Editions',
  published: '2026-01-15T00:00:00.000Z',
  description: 'A fixed-layout picture book read right to left.',
  numberOfPages: undefined,
  duration: undefined,
  readingOrder: [link('https://media/p/page1.xhtml', 'application/xhtml+xml', { title: 'One' })],
  resources: [link('https://media/cover.svg', 'image/svg+xml', { rel: ['cover'] })],
  toc: [link('https://media/p/page1.xhtml', 'application/xhtml+xml', { title: 'One' })],
  links: [link('https://media/book.epub', 'application/epub+zip', { rel: ['alternate'] })],
  signedAt: 1796300000,
  accessibility,
  layout: 'fixed',
  readingProgression: 'rtl',
  altIdentifiers: ['urn:isbn:9783161484100', 'urn:uuid:6f1b8c1e-8f5d-4c5e-9a57-3f1e2d0c4b7a'],
  contributors: [
    { name: 'Sara Lind', role: 'trl' },
    { name: 'Ana Voz', role: 'nrt' },
    { name: 'Kim Art', role: 'dsr' },
  ],
};

describe('the rendered WebPub manifest against Readium schemas', () => {
  const errorsOf = validator();

  it('when a fixed-layout, right-to-left EPUB with accessibility metadata is rendered, then it validates and says all of it', () => {
    const manifest = publicationToWire(fixedRtlBook, 'http://127.0.0.1:8080', 1001);
    expect(errorsOf(manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({
      author: ['Layla Haddad', 'Omar Said'],
      translator: ['Sara Lind'],
      narrator: ['Ana Voz'],
      contributor: [{ name: 'Kim Art', role: 'dsr' }],
      publisher: 'Northwind Editions',
      altIdentifier: ['urn:isbn:9783161484100', 'urn:uuid:6f1b8c1e-8f5d-4c5e-9a57-3f1e2d0c4b7a'],
      layout: 'fixed',
      presentation: { layout: 'fixed' },
      readingProgression: 'rtl',
      accessibility: {
        conformsTo: ['https://www.w3.org/TR/epub-a11y-11#wcag-2.1-aa', 'http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa'],
        accessMode: ['textual', 'visual'],
        accessModeSufficient: ['textual', ['textual', 'visual']],
        feature: ['tableOfContents', 'readingOrder', 'alternativeText'],
        hazard: ['none'],
        summary: 'Text with described images.',
        certification: { certifiedBy: 'Northwind Accessibility Lab' },
      },
    });
  });

  it('when a manifest says what the schema does not allow, then the validator names it (the check is live)', () => {
    const manifest = publicationToWire(fixedRtlBook, 'http://127.0.0.1:8080', 1001);
    const wrong = { ...manifest, metadata: { ...manifest.metadata, readingProgression: 'auto', accessibility: { accessMode: ['smell'] } } };
    expect(errorsOf(wrong).join('\n')).toMatch(/readingProgression[\s\S]*accessMode|accessMode[\s\S]*readingProgression/);
  });

  it('when an audiobook without accessibility metadata is rendered, then it validates with no layout, direction or accessibility', () => {
    const audiobook: reader.Publication = {
      ...fixedRtlBook,
      type: reader.PublicationType.PUBLICATION_TYPE_AUDIOBOOK,
      title: 'Harbour Voices',
      language: 'en',
      duration: 4.02,
      readingOrder: [link('https://media/t/01.m4a', 'audio/mp4', { title: 'Harbour Voices', duration: 4.02 })],
      toc: [
        link('https://media/t/01.m4a', 'audio/mp4', {
          title: 'Harbour Voices',
          children: [
            link('https://media/t/01.m4a#t=0', 'audio/mp4', { title: 'Morning' }),
            link('https://media/t/01.m4a#t=2', 'audio/mp4', { title: 'Evening' }),
          ],
        }),
      ],
      accessibility: undefined,
      layout: undefined,
      readingProgression: undefined,
      altIdentifiers: [],
      contributors: [],
    };
    const manifest = publicationToWire(audiobook, 'http://127.0.0.1:8080', 1003);
    expect(errorsOf(manifest)).toEqual([]);
    expect(manifest.metadata).not.toHaveProperty('accessibility');
    expect(manifest.metadata).not.toHaveProperty('layout');
    expect(manifest.metadata).not.toHaveProperty('readingProgression');
    expect(manifest.toc[0]!.children!.map((chapter) => chapter.title)).toEqual(['Morning', 'Evening']);
  });
});

// An issue's accessibility in the OPDS feeds: OPDS 2.0 publications carry
// Readium's `metadata.accessibility`, checked against Readium's published
// a11y.schema.json (vendored, unchanged, with the other Readium schemas in
// tests/e2e/fixtures/schemas/webpub-manifest, BSD 3-Clause), and OPDS 1.2
// entries carry the schema.org / Dublin Core terms EPUB uses.
import { readFileSync } from 'node:fs';
import { catalog } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accessibilityEntryOf } from './accessibility.js';
import type { Feed, PublicationEntry } from './model.js';
import { accessibilityElements, opds1Feed } from './opds1.js';
import { opds2Feed } from './opds2.js';

const A11Y_SCHEMA = JSON.parse(
  readFileSync(new URL('../../../../tests/e2e/fixtures/schemas/webpub-manifest/a11y.schema.json', import.meta.url), 'utf8'),
) as object;
// zod converts the draft-07 schema (enums, oneOf, `format: uri`) into a validator: no JSON Schema library in the gateway for one test.
const a11ySchema = z.fromJSONSchema(A11Y_SCHEMA as Parameters<typeof z.fromJSONSchema>[0]);

const STORE = 'http://northwind.localhost:8080';

/** What a file says, as catalog passes it on: valid terms, misspelled case, and words of no vocabulary. */
const declared: catalog.Accessibility = {
  conformsTo: ['EPUB Accessibility 1.1 - WCAG 2.1 Level AA', 'http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa', 'Best effort'],
  accessModes: ['textual', 'Visual', 'smell'],
  accessModesSufficient: ['textual', 'textual,visual', 'textual, visual', 'telepathy'],
  features: ['tableOfContents', 'readingorder', 'sparkles'],
  hazards: ['none'],
  summary: ' Text with headings in reading order. ',
  certifiedBy: 'Northwind QA',
};

function publication(accessibility: catalog.Accessibility | undefined): PublicationEntry {
  const entry = accessibilityEntryOf(accessibility);
  return {
    issueId: 7001,
    identifier: 'urn:folio:1:7001',
    title: 'The Lantern Coast',
    description: '',
    author: 'Marta Lindqvist',
    publisher: '',
    contentType: 'epub',
    coverUrl: 'http://127.0.0.1:8080/media/covers/7001.svg',
    acquisitions: [{ kind: 'acquisition', href: `${STORE}/opds/download/7001`, type: 'application/epub+zip' }],
    ...(entry && { accessibility: entry }),
  };
}

const feedOf = (publications: PublicationEntry[]): Feed => ({
  self: { to: 'publications' },
  title: 'New issues',
  storeName: 'Northwind Reader',
  updated: new Date('2026-12-03T12:00:00Z'),
  navigation: [],
  publications,
  searchable: true,
});

describe('accessibility in OPDS', () => {
  it("when an OPDS 2.0 feed lists an issue with accessibility metadata, then it is Readium's accessibility object and valid against its schema", () => {
    const rendered = opds2Feed(STORE, feedOf([publication(declared)]));
    const accessibility = rendered.publications![0]!.metadata.accessibility;
    expect(accessibility).toEqual({
      conformsTo: ['https://www.w3.org/TR/epub-a11y-11#wcag-2.1-aa', 'http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa'],
      accessMode: ['textual', 'visual'],
      accessModeSufficient: ['textual', ['textual', 'visual']],
      feature: ['tableOfContents', 'readingOrder'],
      hazard: ['none'],
      summary: 'Text with headings in reading order.',
      certification: { certifiedBy: 'Northwind QA' },
    });
    const checked = a11ySchema.safeParse(JSON.parse(JSON.stringify(accessibility)));
    expect(checked.success, JSON.stringify(checked.error?.issues)).toBe(true);
  });

  it('when the schema is given a value outside its vocabulary, then it refuses it (the check above can fail)', () => {
    expect(a11ySchema.safeParse({ accessMode: ['smell'] }).success).toBe(false);
    expect(a11ySchema.safeParse({ conformsTo: ['Best effort'] }).success).toBe(false);
  });

  it('when the file declares nothing usable, then the publication has no accessibility object', () => {
    const nothing: catalog.Accessibility = {
      conformsTo: ['n/a'],
      accessModes: ['smell'],
      accessModesSufficient: [],
      features: [],
      hazards: [],
      summary: ' ',
      certifiedBy: undefined,
    };
    const rendered = opds2Feed(STORE, feedOf([publication(nothing), publication(undefined)]));
    for (const entry of rendered.publications!) expect(entry.metadata).not.toHaveProperty('accessibility');
  });

  it('when an OPDS 1.2 feed lists it, then the entry carries schema.org and Dublin Core elements in declared namespaces', () => {
    const xml = opds1Feed(STORE, feedOf([publication({ ...declared, summary: 'Text <b>&</b> headings.' })]));
    expect(xml).toContain('xmlns:schema="http://schema.org/"');
    expect(xml).toContain('xmlns:a11y="http://www.idpf.org/epub/vocab/package/a11y/#"');
    expect(xml).toContain('<dc:conformsTo>https://www.w3.org/TR/epub-a11y-11#wcag-2.1-aa</dc:conformsTo>');
    expect(xml).toContain('<schema:accessMode>textual</schema:accessMode><schema:accessMode>visual</schema:accessMode>');
    expect(xml).toContain(
      '<schema:accessModeSufficient>textual</schema:accessModeSufficient><schema:accessModeSufficient>textual,visual</schema:accessModeSufficient>',
    );
    expect(xml).toContain('<schema:accessibilityFeature>readingOrder</schema:accessibilityFeature>');
    expect(xml).toContain('<schema:accessibilityHazard>none</schema:accessibilityHazard>');
    expect(xml).toContain('<schema:accessibilitySummary>Text &lt;b&gt;&amp;&lt;/b&gt; headings.</schema:accessibilitySummary>');
    expect(xml).toContain('<a11y:certifiedBy>Northwind QA</a11y:certifiedBy>');
    expect(xml).not.toContain('smell');
    // Inside the entry, after its Dublin Core metadata.
    expect(xml.indexOf('<schema:accessMode>')).toBeGreaterThan(xml.indexOf('<entry>'));
  });

  it('when an entry has no accessibility, then no element is written', () => {
    expect(accessibilityElements({ conformsTo: [], accessModes: [], accessModesSufficient: [], features: [], hazards: [] })).toBe('');
    expect(opds1Feed(STORE, feedOf([publication(undefined)]))).not.toContain('<schema:');
  });
});

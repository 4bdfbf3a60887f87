import type { notes } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { toMarkdown, toW3c, type ExportContext, type ExportedNote } from './annotation-export.js';

const note = (id: number, overrides: Partial<notes.Note> = {}): notes.Note => ({
  id,
  uuid: `u${id}`,
  color: 'yellow',
  totalLength: 5,
  totalText: `text ${id}`,
  createdAt: `2026-05-0${id}T10:00:00.000Z`,
  updatedAt: `2026-05-0${id}T11:00:00.000Z`,
  ...overrides,
});

const exported: ExportedNote[] = [
  { tenantId: 1, issueId: 10, note: note(1, { epubLocationStartCfi: 'epubcfi(/6/4!/4/2/1:0)', annotationText: 'a *comment*' }) },
  { tenantId: 1, issueId: 10, note: note(2, { startPage: 4, endPage: 5 }) },
  { tenantId: 1, issueId: 11, note: note(3, { epubLocationList: { items: ['chapter.xhtml', 'epubcfi(/6/8!/4:0)'] } }) },
  { tenantId: 2, issueId: 20, note: note(4) },
];
const context: ExportContext = {
  stores: new Map([
    [1, 'Northwind # Reader'],
    [2, 'Editorial Sur'],
  ]),
  issues: new Map([
    ['1:10', 'Harbor Monthly'],
    ['2:20', 'Revista Pampa'],
  ]),
  generatedAt: new Date('2026-11-25T12:00:00.000Z'),
};

describe('annotation export rendering', () => {
  it('when rendered as W3C, then each note is an Annotation with its quote, position selector, body and times', () => {
    const collection = toW3c(exported, context, 'ana@example.com');
    expect(collection).toMatchObject({ type: 'AnnotationCollection', total: 4, first: { type: 'AnnotationPage', startIndex: 0 } });
    const [first, second, third, fourth] = collection.first!.items;
    expect(first).toMatchObject({
      id: 'urn:folio:note:1',
      motivation: 'commenting',
      created: '2026-05-01T10:00:00.000Z',
      modified: '2026-05-01T11:00:00.000Z',
      body: { type: 'TextualBody', value: 'a *comment*', format: 'text/plain' },
      target: {
        source: 'urn:folio:tenant:1:issue:10',
        selector: [
          { type: 'TextQuoteSelector', exact: 'text 1' },
          { type: 'FragmentSelector', conformsTo: 'http://www.idpf.org/epub/linking/cfi/epub-cfi.html', value: 'epubcfi(/6/4!/4/2/1:0)' },
        ],
      },
    });
    expect(second!.target.selector[1]).toEqual({
      type: 'RangeSelector',
      startSelector: { type: 'FragmentSelector', conformsTo: 'http://tools.ietf.org/rfc/rfc3778', value: 'page=4' },
      endSelector: { type: 'FragmentSelector', conformsTo: 'http://tools.ietf.org/rfc/rfc3778', value: 'page=5' },
    });
    expect(third!.target.selector[1]).toMatchObject({ value: 'epubcfi(/6/8!/4:0)' });
    expect(third!['folio:issue']).toBe('Issue 11');
    expect(fourth).toMatchObject({ motivation: 'highlighting', 'folio:store': 'Editorial Sur', target: { selector: [{ exact: 'text 4' }] } });
    expect(fourth!.body).toBeUndefined();
  });

  it('when there is no note, then the collection is empty and has no page', () => {
    expect(toW3c([], context, 'ana@example.com')).toMatchObject({ total: 0 });
    expect(toW3c([], context, 'ana@example.com').first).toBeUndefined();
  });

  it('when rendered as Markdown, then notes are grouped by store, then issue, with the text quoted and headings escaped', () => {
    const markdown = toMarkdown(exported, context, 'ana@example.com');
    expect(markdown).toBe(
      [
        '# Annotations',
        '',
        '4 notes of ana@example.com, exported 2026-11-25T12:00:00.000Z.',
        '',
        '## Northwind \\# Reader',
        '',
        '### Harbor Monthly',
        '',
        '> text 1',
        '',
        'a *comment*',
        '',
        '— `epubcfi(/6/4!/4/2/1:0)` · yellow · 2026-05-01T10:00:00.000Z',
        '',
        '> text 2',
        '',
        '— pages 4–5 · yellow · 2026-05-02T10:00:00.000Z',
        '',
        '### Issue 11',
        '',
        '> text 3',
        '',
        '— `epubcfi(/6/8!/4:0)` · yellow · 2026-05-03T10:00:00.000Z',
        '',
        '## Editorial Sur',
        '',
        '### Revista Pampa',
        '',
        '> text 4',
        '',
        '— yellow · 2026-05-04T10:00:00.000Z',
        '',
      ].join('\n'),
    );
  });
});

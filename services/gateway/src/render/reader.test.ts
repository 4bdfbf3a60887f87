import { reader } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { POSITION_LIST_MEDIA_TYPE, positionListToWire, publicationToWire, readerSettingsToWire, sessionContentToWire, WEBPUB_MEDIA_TYPE } from './reader.js';

const publication = (preview: boolean): reader.Publication => ({
  type: reader.PublicationType.PUBLICATION_TYPE_EPUB,
  preview,
  identifier: 'urn:folio:1:1001',
  title: 'Atlas',
  language: 'en',
  authors: [],
  publisher: undefined,
  published: undefined,
  description: undefined,
  numberOfPages: undefined,
  duration: undefined,
  readingOrder: [],
  resources: [],
  toc: [],
  links: [{ href: 'https://media/book.epub', type: 'application/epub+zip', title: undefined, rel: ['alternate'], children: [] }],
  signedAt: 1796300000,
  accessibility: undefined,
  layout: undefined,
  readingProgression: undefined,
  altIdentifiers: [],
  contributors: [],
});

describe('publicationToWire (Readium manifest links)', () => {
  it('when a preview manifest is rendered, then self has no query and the positions link names the preview and the signing time', () => {
    const links = publicationToWire(publication(true), 'http://127.0.0.1:8080', 1001).links;
    expect(links).toEqual([
      { rel: ['self'], href: 'http://127.0.0.1:8080/api/v2/reader/1001/manifest', type: WEBPUB_MEDIA_TYPE },
      { href: 'http://127.0.0.1:8080/api/v2/reader/1001/positions?signed_at=1796300000&preview=true', type: POSITION_LIST_MEDIA_TYPE },
      { href: 'https://media/book.epub', type: 'application/epub+zip', rel: ['alternate'] },
    ]);
  });

  it('when the full manifest is rendered, then its positions link has only the signing time', () => {
    expect(publicationToWire(publication(false), 'http://h', 7).links[1]!.href).toBe('http://h/api/v2/reader/7/positions?signed_at=1796300000');
  });
});

describe('positionListToWire', () => {
  it('when locators come back, then total counts them and only audio positions carry fragments', () => {
    const wire = positionListToWire({
      positions: [
        { href: 'a', type: 'audio/mpeg', title: 'One', position: 1, progression: 0, totalProgression: 0, fragments: ['t=0'] },
        { href: 'b', type: 'image/png', title: undefined, position: 2, progression: 0, totalProgression: 0.5, fragments: [] },
      ],
    });
    expect(wire).toEqual({
      total: 2,
      positions: [
        { href: 'a', type: 'audio/mpeg', title: 'One', locations: { position: 1, progression: 0, totalProgression: 0, fragments: ['t=0'] } },
        { href: 'b', type: 'image/png', locations: { position: 2, progression: 0, totalProgression: 0.5 } },
      ],
    });
  });
});

describe('sessionContentToWire (layout and reading direction)', () => {
  const content = (extra: Partial<reader.SessionContent>): reader.SessionContent => ({
    cover: 'https://media/cover.svg',
    tableOfContents: [],
    customPreview: false,
    epub: { fileUrl: 'https://media/book.epub', spine: [{ href: 'p1.xhtml', idref: 'p1' }], totalWords: 10 },
    pdf: undefined,
    audio: undefined,
    layout: undefined,
    readingProgression: undefined,
    ...extra,
  });

  it('when the file is a fixed-layout right-to-left EPUB, then the session says so after the spec keys', () => {
    const wire = sessionContentToWire(content({ layout: 'fixed', readingProgression: 'rtl' }), 'CreateReaderSession');
    expect(wire).toMatchObject({ spine: [{ href: 'p1.xhtml', idref: 'p1' }], layout: 'fixed', reading_progression: 'rtl' });
    expect(Object.keys(wire).slice(-2)).toEqual(['layout', 'reading_progression']);
  });

  it('when a session stored before they were recorded (or a direction left to the reader) is rendered, then both are null', () => {
    expect(sessionContentToWire(content({ readingProgression: 'auto' }), 'GetSession')).toMatchObject({ layout: null, reading_progression: null });
  });
});

describe("readerSettingsToWire (the tenant's custom styles)", () => {
  const view = (reader: Partial<reader.TenantReaderDefaults>): reader.ReaderSettingsView => ({
    token: 'settings-token',
    trackerTrackToken: 'tracker',
    features: { tts: true, search: true, concurrencyLimit: false, chineseVoice: false },
    tenant: {
      lang: 'en',
      readerTokenSessionUrl: 'http://northwind.localhost/api/v1/sessions',
      exitUrl: 'https://northwind.localhost/library',
      reader: { pdfLayout: 'single', tts: true, theme: 'light', extras: [], styles: undefined, ...reader },
      preview: false,
    },
    user: undefined,
    issue: {
      name: 'Atlas',
      description: '',
      fileType: 'epub',
      tags: undefined,
      issueUrl: '',
      issueFullUrl: '',
      issueTenantId: 1,
      publicationDate: '',
      issueIsFavorite: false,
      lastLocation: undefined,
      twitterUser: '',
    },
    engineUrl: '',
    engineUrlProxied: '',
  });
  const stylesOf = (defaults: Partial<reader.TenantReaderDefaults>) => readerSettingsToWire(view(defaults)).settings.tenant.reader.customStyles;

  it('when the tenant set none, then customStyles is null', () => {
    expect(stylesOf({})).toBeNull();
  });

  it('when the typed styles come, then they are shown as they are', () => {
    expect(stylesOf({ styles: { values: { fontFamily: 'Georgia', accent: '#1F4E79' } } })).toEqual({
      fontFamily: 'Georgia',
      accent: '#1F4E79',
    });
    expect(stylesOf({ styles: { values: {} } })).toEqual({});
  });
});

// Request building blocks and the wire shapes of the spec's resources. The
// `id` in `.meta()` names a schema in the OpenAPI components.
import { writtenWithoutSpaces } from '@folio/text';
import { z } from 'zod';

// ------------------------------------------------------------ requests --

/** A query integer: query strings are text, so it is coerced. */
export const queryInt = (options: { min?: number; max?: number; fallback?: number; description?: string } = {}) => {
  let schema = z.coerce.number().int();
  if (options.min !== undefined) schema = schema.min(options.min);
  if (options.max !== undefined) schema = schema.max(options.max);
  const described = options.description ? schema.meta({ description: options.description }) : schema;
  return options.fallback === undefined ? described : described.default(options.fallback);
};

export const id = (description: string) => z.coerce.number().int().min(1).max(2_147_483_647).meta({ description });

export const issueIdParams = z.object({ issue_id: id('Issue id') });

const SEARCH_MIN = 4;

/**
 * An in-issue search (v1 and v2): 4-128 characters, or from 1 in Chinese,
 * Japanese or Thai, where words are not separated by spaces and one
 * character can be a word (reader's rule, @folio/text).
 */
export const inIssueSearch = z
  .string()
  .max(128)
  .superRefine((value, context) => {
    if (value.length < (writtenWithoutSpaces(value) ? 1 : SEARCH_MIN)) {
      context.addIssue({ code: 'too_small', origin: 'string', minimum: SEARCH_MIN, inclusive: true, input: value });
    }
  })
  .meta({ description: '4-128 characters (from 1 in Chinese, Japanese or Thai); diacritic- and case-insensitive', minLength: 1 });
export const langSchema = z.enum(['en', 'es', 'pt', 'it']);

/**
 * An e-mail address a mail server will take. z.email() checks the shape but
 * not the SMTP size limits, so an address with a 300-character domain passed
 * and the mail server then refused it (a 503 for bad input). RFC 5321: the
 * path is at most 256 octets with its angle brackets (the address at most
 * 254; MailDev and others refuse above 253), the local part at most 64, the
 * domain at most 253 (RFC 1035) and each of its labels at most 63.
 */
export const deliverableEmail = z
  .email()
  .max(253)
  .superRefine((email, ctx) => {
    const at = email.lastIndexOf('@');
    const local = email.slice(0, at);
    const domain = email.slice(at + 1);
    if (local.length > 64) ctx.addIssue({ code: 'custom', message: 'The part before @ must not be longer than 64 characters.' });
    if (domain.length > 253) ctx.addIssue({ code: 'custom', message: 'The domain must not be longer than 253 characters.' });
    if (domain.split('.').some((label) => label.length > 63)) {
      ctx.addIssue({ code: 'custom', message: 'Each part of the domain must not be longer than 63 characters.' });
    }
  });
export const scopeSchema = z.enum(['owned', 'all']).meta({ description: '`all`: storefront mode with commerce fields' });

// ------------------------------------------------------------ errors --

export const ErrorBody = z.object({ message: z.string() }).meta({ id: 'Error', description: 'Error response' });
export const ValidationErrorBody = z
  .object({
    message: z.string().meta({ example: 'The given data was invalid.' }),
    errors: z.record(z.string(), z.array(z.string())).meta({
      description: 'Field name (as sent) to reasons',
      example: { per_page: ['The per_page field must be at least 1.'] },
    }),
  })
  .meta({ id: 'ValidationError' });

// ------------------------------------------------------------ identity --

export const TenantObject = z
  .object({
    id: z.number().int(),
    name: z.string(),
    domain: z.string().meta({ description: 'Custom domain or subdomain; the store is reached with it as Host' }),
    logo: z.string(),
    country_code: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2' }),
    country_name: z.string().nullable(),
    colors: z.object({ primary: z.string(), secondary: z.string() }),
  })
  .meta({ id: 'Tenant' });

export const UserObject = z
  .object({
    id: z.number().int(),
    admin: z.boolean(),
    email: z.string(),
    picture: z.string(),
    tenants: z.array(TenantObject),
  })
  .meta({ id: 'User' });

export const TokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'JWT (ES256) with claims sub, email, jti, iat, exp' }),
    token_type: z.literal('bearer'),
    expires_in: z.number().int().meta({ example: 3600 }),
    refresh_token: z.string().meta({ description: '64 characters, single use' }),
  })
  .meta({ id: 'TokenResponse' });

export const CursorMeta = z
  .object({ per_page: z.number().int(), next_cursor: z.string().nullable(), prev_cursor: z.string().nullable() })
  .meta({ id: 'CursorMeta' });

export const PageMeta = z
  .object({
    current_page: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'PageMeta' });

// ------------------------------------------------------------ catalog --

export const Price = z
  .object({
    currency: z.string(),
    amount: z.number(),
    discount: z.object({ amount: z.number(), percentage: z.number().nullable(), ends_at: z.string().nullable() }).optional(),
  })
  .meta({ id: 'Price' });

export const IssueSummary = z
  .object({
    id: z.number().int(),
    tenant_id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    cover_url: z.string(),
    published_at: z.string().meta({ example: '2026-03-02 09:00:00' }),
    type: z.string().meta({ example: 'epub' }),
    description: z.string(),
    external_id: z.string(),
    number_of_pages: z.number().int().nullable().meta({ description: 'null when the content has no pages (audiobooks)' }),
    lang: z.string(),
    author: z.string(),
    publisher: z.string(),
    bisac: z.string(),
    can_be_read: z.boolean().optional(),
    can_be_bought: z.boolean().optional(),
    access_reason: z.enum(['free', 'purchased', 'subscription']).nullable().optional(),
    free: z.boolean().optional(),
    prices: z.array(Price).optional(),
    purchase_link: z.string().nullable().optional(),
    status: z.string().optional().meta({ description: 'Localized Acquire / Read / Listen' }),
  })
  .meta({ id: 'IssueSummary', description: 'Commerce fields (can_be_read ... status) only with scope=all' });

export const Section = z
  .object({
    filter_name: z.string().optional(),
    filter_value: z.string().optional(),
    filter_params: z.string().optional().meta({ description: 'X-AppBase-Version >= 1.28.0 instead of filter_name/filter_value' }),
    title: z.string(),
    data: z.array(IssueSummary),
    meta: PageMeta.optional(),
  })
  .meta({ id: 'Section' });

export const CursorSection = Section.omit({ meta: true }).extend({ meta: CursorMeta }).meta({ id: 'CursorSection' });

/** A shelf of the library listing: a section without meta of its own. */
export const Shelf = Section.omit({ meta: true }).meta({ id: 'Shelf' });

/** A single-section response with page-based meta (library filter, search, continue reading). */
export const PagedSection = Section.omit({ meta: true }).extend({ meta: PageMeta }).meta({ id: 'PagedSection' });

/** GET /api/v2/library: page meta over shelves (its per_page is the number of shelves per page). */
export const LibraryShelves = z.object({ meta: PageMeta, data: z.array(Shelf) }).meta({ id: 'LibraryShelves' });

export const FavoriteState = z.object({ is_favorite: z.boolean() }).meta({ id: 'FavoriteState' });

// ------------------------------------------------------------ reader --

export const TocEntry = z
  .object({
    title: z.string(),
    href: z.string().optional().meta({ description: 'EPUB: the chapter (relative to the package document, may carry a fragment)' }),
    page: z.number().int().optional().meta({ description: 'PDF: the page, 1-based' }),
    track: z.number().int().optional().meta({ description: 'Audiobook: the track, 0-based' }),
  })
  .meta({ id: 'TocEntry', description: 'EPUB {title, href}; PDF {title, page}; audiobook {title, track}' });

const AudioTrack = z.object({ title: z.string(), url: z.string(), duration: z.number().int().meta({ description: 'Whole seconds' }) });

export const ReaderSession = z
  .object({
    token: z.string().meta({ description: 'Use as the reader-token header' }),
    cover: z.string(),
    table_of_contents: z.array(TocEntry),
    custom_preview: z.boolean(),
    file_url: z.string().nullable(),
    files_urls: z.array(z.string()).nullable(),
    files_info: z.array(z.object({ width: z.number().int(), height: z.number().int() })).nullable(),
    articles: z.array(z.unknown()).nullable(),
    spine: z.array(z.object({ href: z.string(), idref: z.string() })).nullable(),
    total_words: z.number().int().nullable(),
    tracks: z.array(AudioTrack).nullable(),
    layout: z
      .enum(['reflowable', 'fixed'])
      .nullable()
      .meta({ description: '`fixed`: PDF pages or a fixed-layout EPUB (`rendition:layout` pre-paginated); null for audio' }),
    reading_progression: z
      .enum(['ltr', 'rtl'])
      .nullable()
      .meta({ description: "The file's reading direction (an EPUB spine's page-progression-direction); null when it leaves it to the reader" }),
  })
  .meta({ id: 'ReaderSession' });

/** An integer that fits the wire's int32 (reader checks the ranges that the content sets). */
const int32 = () => z.number().int().min(-2_147_483_648).max(2_147_483_647);

export const UserReaderSettings = z
  .object({
    theme: z.string().nullable(),
    epub: z.object({ zoom: int32().nullable(), layout: z.string().nullable() }),
    pdf: z.object({ layout: z.string().nullable() }),
  })
  .meta({ id: 'UserReaderSettings' });

export const LastLocation = z
  .union([z.object({ chapterHref: z.string(), cfi: z.string() }), z.object({ page: int32() }), z.object({ currentSeek: z.number(), currentTrack: int32() })])
  .meta({ id: 'LastLocation', description: 'EPUB {chapterHref, cfi}; PDF {page}; audiobook {currentSeek, currentTrack}' });

export const ReaderSettings = z
  .object({
    token: z.string(),
    tracker_track_token: z.string(),
    features: z.object({ tts: z.boolean(), search: z.boolean(), concurrency_limit: z.boolean(), chinese_voice: z.boolean() }),
    settings: z.object({
      tenant: z.object({
        lang: z.string(),
        reader_token_session_url: z.string(),
        exit_url: z.string(),
        reader: z.object({
          pdf: z.object({ layout: z.string().nullable() }),
          tts: z.boolean(),
          theme: z.string(),
          extras: z.array(z.string()),
          customStyles: z.record(z.string(), z.unknown()).nullable(),
        }),
        preview: z.boolean(),
      }),
      user: UserReaderSettings,
    }),
    issue: z.object({
      name: z.string(),
      description: z.string(),
      file_type: z.string(),
      tags: z.object({ author: z.array(z.string()), keyword: z.array(z.string()), edition: z.array(z.string()) }),
      issue_url: z.string(),
      issue_full_url: z.string(),
      issue_tenant_id: z.number().int(),
      publication_date: z.string(),
      user: z.object({ issue_is_favorite: z.boolean(), last_location: LastLocation.nullable() }),
      twitter_user: z.string(),
    }),
    engine_url: z.string(),
    engine_url_proxied: z.string(),
  })
  .meta({ id: 'ReaderSettings' });

export const DownloadRecord = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    slug: z.string(),
    published_at: z.object({ timestamp: z.number().int(), date: z.string(), timezone: z.string() }),
    table_of_contents: z.array(TocEntry),
    user_can_read: z.boolean(),
    file_type: z.string(),
    reader_url: z.string(),
    cover: z.string(),
    thumbnail: z.string(),
    url: z.string(),
    file_url: z.string().nullable(),
    packed_file_url: z.string().nullable(),
    tracks: z.array(AudioTrack).nullable(),
    files_urls: z.array(z.string()).nullable(),
    articles: z.array(z.unknown()),
    payment_links: z.unknown().nullable(),
    prices: z.record(z.string(), z.number()),
    author: z.string(),
    pages: z.unknown().nullable(),
    number_of_pages: z.number().int().nullable(),
    external_id: z.string(),
    private_material: z.unknown().nullable(),
    access_expires_at: z.string().nullable(),
    require_login: z.number().int(),
    free: z.boolean(),
  })
  .meta({ id: 'DownloadRecord' });

const linkFields = {
  href: z.string(),
  type: z.string().meta({ description: 'Media type' }),
  title: z.string().optional(),
  duration: z.number().optional().meta({ description: 'Seconds (audio tracks)' }),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  rel: z.array(z.string()).optional(),
};

// One level is declared: the generator takes no recursive schema, and deeper entries have the same shape.
const NestedLink = z
  .object(linkFields)
  .meta({ id: 'NestedPublicationLink', description: 'A table-of-contents entry inside another (same shape, with its own `children` if any)' });

const PublicationLink = z
  .object({
    ...linkFields,
    children: z
      .array(NestedLink)
      .optional()
      .meta({ description: "Nested entries: an audiobook track's chapters (`<track>#t=<seconds>`), a chapter's sections" }),
  })
  .meta({ id: 'PublicationLink', description: 'A Readium link; paid files are signed URLs that expire no later than the access' });

/** Readium's accessibility object (OPDS 2 publications use the same). */
export const ReadiumAccessibility = z
  .object({
    conformsTo: z.array(z.string()).optional().meta({ description: 'URIs of the accessibility profiles met (EPUB Accessibility, WCAG level)' }),
    accessMode: z.array(z.string()).optional(),
    accessModeSufficient: z
      .array(z.union([z.string(), z.array(z.string())]))
      .optional()
      .meta({ description: 'A list: modes that suffice together' }),
    feature: z.array(z.string()).optional(),
    hazard: z.array(z.string()).optional(),
    summary: z.string().optional(),
    certification: z.object({ certifiedBy: z.string() }).optional(),
  })
  .meta({ id: 'ReadiumAccessibility', description: "What the file declares of its accessibility, in Readium's vocabulary (schema.org terms)" });

export const WebPublication = z
  .object({
    '@context': z.string(),
    metadata: z
      .object({
        '@type': z.string(),
        conformsTo: z.string().meta({ description: 'Readium profile: epub, divina (PDF pages) or audiobook' }),
        identifier: z.string(),
        title: z.string(),
        language: z.string().optional(),
        altIdentifier: z.array(z.string()).optional().meta({ description: "The file's own identifiers (`urn:isbn:...`, `urn:uuid:...`)" }),
        author: z.array(z.string()).optional().meta({ description: 'Every author, in order' }),
        translator: z.array(z.string()).optional(),
        editor: z.array(z.string()).optional(),
        artist: z.array(z.string()).optional(),
        illustrator: z.array(z.string()).optional(),
        narrator: z.array(z.string()).optional(),
        colorist: z.array(z.string()).optional(),
        inker: z.array(z.string()).optional(),
        penciler: z.array(z.string()).optional(),
        letterer: z.array(z.string()).optional(),
        contributor: z
          .array(z.object({ name: z.string(), role: z.string().meta({ description: 'MARC relator code' }) }))
          .optional()
          .meta({ description: 'Creators of other roles' }),
        publisher: z.string().optional(),
        published: z.string().optional(),
        description: z.string().optional(),
        numberOfPages: z.number().int().optional(),
        duration: z.number().optional(),
        readingProgression: z.enum(['ltr', 'rtl']).optional().meta({ description: "The file's reading direction; absent when it leaves it to the reader" }),
        layout: z.enum(['reflowable', 'fixed']).optional().meta({ description: '`fixed`: PDF pages, fixed-layout EPUBs; absent for audio' }),
        presentation: z
          .object({ layout: z.enum(['reflowable', 'fixed']) })
          .optional()
          .meta({ description: 'The same layout where Readium navigators read it' }),
        accessibility: ReadiumAccessibility.optional(),
      })
      .meta({ description: 'Readium metadata' }),
    links: z.array(PublicationLink).meta({
      description: '`self`, and as `alternate` the EPUB package (a preview: its preview package) or the PDF file (not in a preview)',
    }),
    readingOrder: z.array(PublicationLink).meta({ description: 'EPUB chapters, PDF page images or audio tracks, in order' }),
    resources: z.array(PublicationLink),
    toc: z.array(PublicationLink),
  })
  .meta({ id: 'WebPublication', description: 'Readium Web Publication Manifest (https://readium.org/webpub-manifest/)' });

const PositionLocator = z
  .object({
    href: z.string().meta({ description: 'The href of the manifest reading-order link' }),
    type: z.string().meta({ description: 'Media type' }),
    title: z.string().optional(),
    locations: z.object({
      position: z.number().int().meta({ description: '1-based over the publication' }),
      progression: z.number().meta({ description: 'Within the resource, 0..1' }),
      totalProgression: z.number().meta({ description: 'Within the publication, 0..1' }),
      fragments: z.array(z.string()).optional().meta({ description: 'Media fragments (audio: `t=0`)' }),
    }),
  })
  .meta({ id: 'PositionLocator', description: 'A Readium Locator: one position of the publication' });

export const PositionList = z
  .object({ total: z.number().int(), positions: z.array(PositionLocator) })
  .meta({ id: 'PositionList', description: 'Readium positions list (application/vnd.readium.position-list+json)' });

export const TextSearchHit = z.object({ location: z.string(), snippet: z.string(), query_words: z.array(z.string()) }).meta({ id: 'TextSearchHit' });

// ------------------------------------------------------------ notes --

const noteFields = {
  id: z.number().int(),
  uuid: z.string(),
  color: z.string(),
  totalLength: z.number().int(),
  totalText: z.string().meta({ description: 'Encrypted with the reader session key' }),
  annotationText: z.string().nullable(),
  startPage: z.number().int().nullable(),
  startPageStartOffset: z.number().int().nullable(),
  startPageLength: z.number().int().nullable(),
  endPage: z.number().int().nullable(),
  endPageLength: z.number().int().nullable(),
  epubLocationStartCfi: z.string().nullable(),
  epubLocationEndCfi: z.string().nullable(),
  epubChapter: z.string().nullable(),
  epubLocationStartChar: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const NoteV2 = z.object({ ...noteFields, epubLocation: z.array(z.unknown()).nullable() }).meta({ id: 'NoteV2' });
export const NoteV1 = z.object({ ...noteFields, epubLocation: z.string().nullable() }).meta({ id: 'NoteV1' });

/** A non-negative position integer that fits the wire's int32. */
const noteInt = (description: string) => z.number().int().min(0).max(2_147_483_647).nullable().optional().meta({ description });
const epubString = (description: string) => z.string().max(2048).nullable().optional().meta({ description });

/**
 * Create-note body with the notes service's bounds (integers capped at int32,
 * string lengths); `epubLocation` differs by generation: v2 an array of
 * strings, v1 a string. `null` and absent both mean unset.
 */
export const noteCreateBody = <L extends z.ZodType>(epubLocation: L) =>
  z.object({
    uuid: z.string().min(1).max(64).meta({ description: 'Client-generated; a repeated uuid returns the existing note' }),
    color: z.string().min(1).max(32),
    totalLength: z.number().int().min(1).max(2_147_483_647),
    totalText: z.string().min(1).max(100_000).meta({ description: 'Plaintext in requests; encrypted in every response' }),
    annotationText: z.string().max(10_000).nullable().optional(),
    startPage: noteInt('PDF: first page'),
    startPageStartOffset: noteInt('PDF: offset in the first page'),
    startPageLength: noteInt('PDF: length in the first page'),
    endPage: noteInt('PDF: last page (>= startPage)'),
    endPageLength: noteInt('PDF: length in the last page'),
    epubLocationStartCfi: epubString('EPUB: start CFI'),
    epubLocationEndCfi: epubString('EPUB: end CFI'),
    epubChapter: epubString('EPUB: chapter'),
    epubLocationStartChar: epubString('EPUB: start character'),
    epubLocation: epubLocation.nullable().optional(),
  });
export const noteCreateBodyV2 = noteCreateBody(z.array(z.string().max(2048)).max(100).meta({ description: 'General EPUB location (v2: array)' }));
export const noteCreateBodyV1 = noteCreateBody(z.string().max(4096).meta({ description: 'General EPUB location (v1: string)' }));

export const updateNoteBody = z.object({
  color: z.string().min(1).max(32),
  annotationText: z.string().nullable().optional().meta({ description: 'null clears the comment' }),
});

// ------------------------------------------------------------ integrations --

export const TranslateResponse = z
  .object({
    data: z.object({ translations: z.array(z.object({ translatedText: z.string(), detectedSourceLanguage: z.string() })) }),
    uuid: z.string(),
  })
  .meta({ id: 'TranslateResponse' });

export const AiActions = z
  .object({ explain: z.string(), expand: z.string(), summarize: z.string() })
  .meta({ id: 'AiActions', description: 'Action key to localized label' });

export const AiResult = z.object({ uuid: z.string(), text: z.string(), language: z.string() }).meta({ id: 'AiResult' });

// ------------------------------------------------------------ reader (v1) --

export const ReaderSessionV1 = ReaderSession.extend({
  id: z.string().meta({
    description:
      'The stored session, for GET/DELETE /api/v1/sessions/{id}: 128 random bits (22 base64url characters), since those routes need no authentication',
  }),
}).meta({ id: 'ReaderSessionV1' });

export const StoredReaderSession = z
  .object({
    id: z.string().nullable().meta({ description: 'The public session id (null only for sessions stored before public ids)' }),
    tenant_id: z.number().int(),
    user_id: z.number().int(),
    issue_id: z.number().int(),
    preview: z.boolean(),
    api: z.enum(['v1', 'v2']),
    reader: z.string().nullable(),
    engine_host: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string(),
    token: z.null().meta({ description: 'Always null: these routes have no authentication' }),
  })
  .extend(ReaderSession.omit({ token: true }).shape)
  .extend({
    tracks: z
      .array(AudioTrack.extend({ url: z.null() }))
      .nullable()
      .meta({ description: 'URLs are null in the stored record' }),
  })
  .meta({ id: 'StoredReaderSession', description: 'The reader session response as first returned, with the session record' });

export const IssueTextContent = z
  .object({
    id: z.number().int().meta({ description: '1-based position of the section in the issue' }),
    issue_id: z.number().int(),
    page: z.number().int().meta({ description: 'PDF page or EPUB spine position, 1-based' }),
    section: z.number().int().meta({ description: 'Paragraph within the page, 1-based' }),
    location: z.string().meta({ example: 'page_3_section_2' }),
    text: z.string(),
  })
  .meta({ id: 'IssueTextContent' });

// No proto field carries presentation (docs/architecture.md, "Boundary
// rules"): services answer facts, the gateway renders them (its `render/`).
// A field whose name or type says presentation (the client's language or app
// version, an API generation, untyped styles, markup, labels, titles, JSON
// text) fails here, deprecated or not: both releases that replaced such fields
// are done, so a field that goes is reserved (`reserved 4; reserved "title";`),
// and a reserved name is not a field. A type that only says presentation
// (an API generation) may not be declared at all.
//
// The allow-list names the fields that keep such a name and why: facts that
// only share the name (an issue's own title or language), and presentation
// not yet moved out of its service. It may only shrink: an entry whose field
// is gone fails, so it is removed in the change that removes the field.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const protoRoot = join(root, 'proto');

/** Field names that say presentation. */
const FORBIDDEN_NAMES = new Set([
  'lang',
  'app_base_version',
  'app_version',
  'api',
  'api_version',
  'custom_styles',
  'snippet',
  'html',
  'http_status',
  'jwks_json',
  'title',
  'label',
  'status',
]);
/** Types that say presentation: which API generation's form to answer in, or untyped JSON. */
const FORBIDDEN_TYPES = new Set(['ApiVersion', 'SearchApi', 'Struct', 'Value', 'ListValue']);
/** The presentation-only types, which no proto may declare. */
const FORBIDDEN_DECLARATIONS = ['ApiVersion', 'SearchApi'];

const CONTENT_LANGUAGE = "the content's own language (metadata), not the client's";
const CONTENT_TITLE = 'the own title of a publication, chapter, track or link (metadata), not a rendered label';
const TENANT_LANGUAGE = "the tenant's language, a setting";
const STATE = 'a state enum, not a label';
const NOT_YET_MOVED = (what: string) => `presentation not yet moved to the gateway's render/: ${what}`;

const ALLOWED: Record<string, string> = {
  'svc.catalog.v1.IssueSummary.lang': CONTENT_LANGUAGE,
  'svc.catalog.v1.PublisherIssue.lang': CONTENT_LANGUAGE,
  'svc.catalog.v1.IssueFields.lang': CONTENT_LANGUAGE,

  'svc.commerce.v1.GetCheckoutPageRequest.lang': NOT_YET_MOVED('commerce chooses the checkout page language (the request, else the tenant)'),
  'svc.commerce.v1.SubmitPaymentRequest.lang': NOT_YET_MOVED('commerce chooses the checkout page language (the request, else the tenant)'),
  'svc.commerce.v1.CheckoutPage.lang': NOT_YET_MOVED('commerce chooses the checkout page language (the request, else the tenant)'),
  'svc.commerce.v1.CheckoutStore.lang': TENANT_LANGUAGE,
  'svc.commerce.v1.PaymentField.label': 'a field key enum (PaymentFieldLabel) that the gateway words, not text',

  'svc.identity.v1.Tenant.lang': TENANT_LANGUAGE,
  'svc.identity.v1.StartEmailLoginRequest.lang': 'the language of the login e-mail identity itself sends (not an HTTP answer)',
  'svc.identity.v1.SubmitHelpRequestRequest.lang': "recorded with the help request as the user's context, which support reads",
  'svc.identity.v1.SubmitHelpRequestRequest.app_version': "recorded with the help request as the user's context, which support reads",
  'svc.identity.v1.SubmitHelpRequestRequest.app_base_version': "recorded with the help request as the user's context, which support reads",
  'svc.identity.v1.DeviceKey.label': 'the name the user gave the device (user data)',
  'svc.identity.v1.CreateDeviceKeyRequest.label': 'the name the user gives the device (user data)',

  'svc.integrations.v1.DefineRequest.lang': 'the language of the word looked up (an input of the lookup)',
  'svc.integrations.v1.DefineResponse.lang': 'the language of the word looked up',
  'svc.integrations.v1.RunAiActionRequest.lang': 'the language the AI answers in (an input of the action)',

  'svc.reader.v1.GetReaderSettingsRequest.lang': NOT_YET_MOVED("reader puts the client's language into the engine URLs"),
  'svc.reader.v1.StoredReaderSession.api': NOT_YET_MOVED('reader stores the API generation a session was opened with'),
  'svc.reader.v1.TenantReaderSettings.lang': TENANT_LANGUAGE,
  'svc.reader.v1.ContentMetadata.lang': CONTENT_LANGUAGE,
  'svc.reader.v1.TocEntry.title': CONTENT_TITLE,
  'svc.reader.v1.AudioTrack.title': CONTENT_TITLE,
  'svc.reader.v1.PositionLocator.title': CONTENT_TITLE,
  'svc.reader.v1.PublicationLink.title': CONTENT_TITLE,
  'svc.reader.v1.Publication.title': CONTENT_TITLE,
  'svc.reader.v1.Progression.title': CONTENT_TITLE,
  'svc.reader.v1.UploadContentHeader.title': CONTENT_TITLE,
  'svc.reader.v1.ContentMetadata.title': CONTENT_TITLE,
  'svc.reader.v1.PublicationFile.title': CONTENT_TITLE,
  'svc.reader.v1.GetPublicationFileResponse.title': CONTENT_TITLE,
  'svc.reader.v1.UploadContentResponse.status': STATE,
  'svc.reader.v1.GetContentStatusResponse.status': STATE,
};

interface ProtoField {
  /** `svc.catalog.v1.Section.kind` */
  path: string;
  type: string;
  deprecated: boolean;
  file: string;
}

interface ProtoText {
  file: string;
  /** Without comments. */
  text: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every proto file's text, without its comments. */
function protoTexts(): ProtoText[] {
  return walk(protoRoot)
    .filter((path) => path.endsWith('.proto'))
    .map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8').replace(/\/\/[^\n]*/g, '') }));
}

/**
 * The fields of every message (nested and oneof members included) of the
 * proto files, read from their text: declarations end with `;`, blocks open
 * with `{`, comments are dropped first.
 */
function protoFields(): ProtoField[] {
  return protoTexts().flatMap(({ file, text }) => {
    const pkg = /\bpackage\s+([\w.]+)\s*;/.exec(text)?.[1] ?? '';
    const blocks: { kind: string; name: string }[] = [];
    const fields: ProtoField[] = [];
    for (const [, body = '', delimiter] of text.matchAll(/([^{};]*)([{};])/g)) {
      if (delimiter === '{') {
        const header = /^\s*(message|enum|oneof|service|rpc|extend)\s+(\w+)/.exec(body);
        blocks.push({ kind: header?.[1] ?? 'other', name: header?.[2] ?? '' });
        continue;
      }
      if (delimiter === '}') {
        blocks.pop();
        continue;
      }
      const inside = blocks.at(-1)?.kind;
      if (inside !== 'message' && inside !== 'oneof') continue;
      const field = /^\s*(?:optional\s+|repeated\s+)?(map\s*<[^>]*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*(\[[^\]]*\])?\s*$/.exec(body);
      if (!field) continue;
      const messages = blocks.filter((block) => block.kind === 'message').map((block) => block.name);
      fields.push({
        path: [pkg, ...messages, field[2]].join('.'),
        type: field[1]!,
        deprecated: /\bdeprecated\s*=\s*true\b/.test(field[3] ?? ''),
        file,
      });
    }
    return fields;
  });
}

const saysPresentation = (field: ProtoField) => FORBIDDEN_NAMES.has(field.path.split('.').at(-1)!) || FORBIDDEN_TYPES.has(field.type.split('.').at(-1)!);

describe('proto fields carry facts, not presentation', () => {
  const fields = protoFields();

  it('when the protos are read, then their fields are found and a reserved name is not one (the reader of this test works)', () => {
    expect(fields.find((field) => field.path === 'svc.catalog.v1.Section.kind')).toMatchObject({ type: 'SectionKind', deprecated: false });
    expect(fields.find((field) => field.path === 'svc.catalog.v1.Section.collection_titles')).toMatchObject({ type: 'map<string, string>' });
    expect(fields.find((field) => field.path === 'svc.catalog.v1.Section.title')).toBeUndefined();
    expect(fields.find((field) => field.path === 'svc.identity.v1.DeviceKey.label')).toMatchObject({ type: 'string' });
  });

  it('when a field is named or typed as presentation, then it is allowed with its reason (deprecated is no excuse)', () => {
    const offending = fields
      .filter((field) => saysPresentation(field) && !(field.path in ALLOWED))
      .map((field) => `${field.path}${field.deprecated ? ' [deprecated]' : ''} (${field.file})`);
    expect(offending).toEqual([]);
  });

  it('when a type only says presentation, then no proto declares it', () => {
    const declared = protoTexts().flatMap(({ file, text }) =>
      FORBIDDEN_DECLARATIONS.filter((name) => new RegExp(`\\b(?:enum|message)\\s+${name}\\b`).test(text)).map((name) => `${name} (${file})`),
    );
    expect(declared).toEqual([]);
  });

  it('when an allowed field is gone, then its entry goes too (the list only shrinks)', () => {
    const present = new Set(fields.map((field) => field.path));
    expect(Object.keys(ALLOWED).filter((path) => !present.has(path))).toEqual([]);
  });
});

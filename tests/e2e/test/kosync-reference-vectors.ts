// koreader-sync-server's own spec cases, ported as data for the end-to-end
// run against {store}/kosync (kosync-reference.test.ts).
//
// Sources (AGPL-3.0-only, https://github.com/koreader/koreader-sync-server,
// COPYING): the cases below restate the requests and the asserted answers
// of its busted specs, not their code.
// - v1: spec/controllers/1/syncs_controller_spec.lua at 597e0648 (master);
//   the status and code of each refusal from app/controllers/1/syncs_controller.lua
//   and config/errors.lua at the same commit.
// - v2: spec/controllers/2/syncs_controller_spec.lua and
//   app/controllers/2/syncs_controller.lua at 288d91de (the v2 controller
//   chosen by `Accept: application/vnd.koreader.v2+json`, with
//   lib/identifiers.lua; pull request koreader/koreader-sync-server#55).
//
// How the port adapts them, case by case in `adapted`:
// - the digests (C1, S1, M, ...) are namespaced per case by the runner, as
//   the reference empties its database before each case;
// - accounts are not created here (KOReader's Register is refused with 402
//   code 2005, the reference's answer when registration is disabled): the
//   users are app users with a device key;
// - a refusal is compared by status and `code`; the message says what to fix;
// - what a spec does to Redis directly is done through the protocol.
// Not ported: "forgets aliases when the account is deleted" (no
// DELETE /users/me here; erasure of records and aliases is covered by
// services/reader/test/e-readers.test.ts).

export type Who = 'reader' | 'other' | 'wrong-key' | 'empty-key';

export interface Expected {
  status: number;
  /** A refusal's `code` (its message is checked to be a string). */
  code?: number;
  /** The whole body, `timestamp` aside (checked to be a number when `timestamp` is true). */
  body?: Record<string, unknown>;
  /** Fields the body must have (others may be there too). */
  fields?: Record<string, unknown>;
  timestamp?: boolean;
}

export type Step =
  | { op: 'healthcheck'; version: 1 | 2; expect: Expected }
  | { op: 'register'; version: 1 | 2; expect: Expected }
  | { op: 'auth'; version: 1 | 2; as: Who; expect: Expected }
  | { op: 'get'; version: 1 | 2; as: Who; document: string; ids?: string; expect: Expected }
  | { op: 'update'; version: 1 | 2; as: Who; body: Record<string, unknown>; expect: Expected };

export interface Vector {
  /** `describe` / `it` of the source spec. */
  name: string;
  source: string;
  adapted?: string;
  steps: Step[];
}

type Identifier = { type: string; value: string } | Record<string, unknown> | string;

const V1_SPEC = 'spec/controllers/1/syncs_controller_spec.lua@597e0648';
const V1_CONTROLLER = 'app/controllers/1/syncs_controller.lua@597e0648';
const V2_SPEC = 'spec/controllers/2/syncs_controller_spec.lua@288d91de';

/** The specs' `update(user, key, document, [identifiers,] percentage, progress, device)`. */
const update = (
  version: 1 | 2,
  as: Who,
  document: string | undefined,
  identifiers: Identifier[] | undefined,
  percentage: unknown,
  progress: unknown,
  device: unknown,
  expect: Expected = { status: 200 },
): Step => ({ op: 'update', version, as, body: { document, identifiers, percentage, progress, device }, expect });
const get = (version: 1 | 2, as: Who, document: string, ids: string | undefined, expect: Expected): Step => ({ op: 'get', version, as, document, ids, expect });
const ok = (fields: Record<string, unknown>): Expected => ({ status: 200, fields });
const exactly = (body: Record<string, unknown>): Expected => ({ status: 200, body, timestamp: Object.keys(body).length > 0 });
const refused = (status: number, code: number): Expected => ({ status, code });

// The v2 spec's three copies of one work: repack is original recompressed, edition shares only the metadata.
const original = [
  { type: 'content', value: 'C1' },
  { type: 'structure', value: 'S1' },
  { type: 'metadata', value: 'M' },
];
const repack = [
  { type: 'content', value: 'C2' },
  { type: 'structure', value: 'S1' },
  { type: 'metadata', value: 'M' },
];
const edition = [
  { type: 'content', value: 'C3' },
  { type: 'structure', value: 'S3' },
  { type: 'metadata', value: 'M' },
];
const ids = (list: { type: string; value: string }[]) => list.map(({ type, value }) => `${type}:${value}`).join(',');
const xpointer = '/body/DocFragment[20]/body/p[22]';
const doc = '89isjkdaj9j';

export const V1_VECTORS: Vector[] = [
  {
    name: '#create adds new user',
    source: V1_SPEC,
    adapted: 'accounts are not created here: the reference answer with registration disabled (402, code 2005)',
    steps: [{ op: 'register', version: 1, expect: refused(402, 2005) }],
  },
  {
    name: '#auth should authorize',
    source: V1_SPEC,
    steps: [
      { op: 'auth', version: 1, as: 'empty-key', expect: refused(401, 2001) },
      { op: 'auth', version: 1, as: 'wrong-key', expect: refused(401, 2001) },
      { op: 'auth', version: 1, as: 'reader', expect: { status: 200, body: { authorized: 'OK' } } },
    ],
  },
  {
    name: '#sync should authorize itself before getting progress',
    source: V1_SPEC,
    steps: [get(1, 'wrong-key', doc, undefined, refused(401, 2001))],
  },
  {
    name: '#sync should authorize itself before updating progress',
    source: V1_SPEC,
    steps: [update(1, 'wrong-key', doc, undefined, 0.32, '56', 'my kpw', refused(401, 2001))],
  },
  {
    name: '#sync should update document progress',
    source: V1_SPEC,
    steps: [update(1, 'reader', doc, undefined, 0.32, '56', 'my kpw', { status: 200, body: { document: doc }, timestamp: true })],
  },
  {
    name: '#sync cannot get progress of non-existent document',
    source: V1_SPEC,
    steps: [update(1, 'reader', doc, undefined, 0.32, '56', 'my kpw'), get(1, 'reader', `${doc}non_existent`, undefined, exactly({}))],
  },
  {
    name: '#sync should get document progress',
    source: V1_SPEC,
    steps: [
      update(1, 'reader', doc, undefined, 0.32, '56', 'my kpw'),
      get(1, 'reader', doc, undefined, exactly({ document: doc, percentage: 0.32, progress: '56', device: 'my kpw' })),
    ],
  },
  {
    name: '#sync should get the latest document progress',
    source: V1_SPEC,
    steps: [
      update(1, 'reader', doc, undefined, 0.32, '56', 'my kpw'),
      update(1, 'reader', doc, undefined, 0.22, '36', 'my pb'),
      get(1, 'reader', doc, undefined, exactly({ document: doc, percentage: 0.22, progress: '36', device: 'my pb' })),
    ],
  },
  {
    name: 'healthcheck',
    source: `${V1_CONTROLLER} (SyncsController:healthcheck), README`,
    steps: [{ op: 'healthcheck', version: 1, expect: { status: 200, body: { state: 'OK' } } }],
  },
  {
    name: 'update_progress: a missing, empty or colon document is 403 code 2004',
    source: `${V1_CONTROLLER} (update_progress), config/errors.lua`,
    steps: [
      update(1, 'reader', undefined, undefined, 0.32, '56', 'my kpw', refused(403, 2004)),
      update(1, 'reader', '', undefined, 0.32, '56', 'my kpw', refused(403, 2004)),
      update(1, 'reader', 'a:b', undefined, 0.32, '56', 'my kpw', refused(403, 2004)),
    ],
  },
  {
    name: 'update_progress: percentage, progress and device are required (403 code 2003); percentage goes through tonumber',
    source: `${V1_CONTROLLER} (update_progress), config/errors.lua`,
    steps: [
      update(1, 'reader', doc, undefined, undefined, '56', 'my kpw', refused(403, 2003)),
      update(1, 'reader', doc, undefined, 'about half', '56', 'my kpw', refused(403, 2003)),
      update(1, 'reader', doc, undefined, 0.32, undefined, 'my kpw', refused(403, 2003)),
      update(1, 'reader', doc, undefined, 0.32, '56', undefined, refused(403, 2003)),
      update(1, 'reader', doc, undefined, '0.5', '56', 'my kpw', { status: 200, body: { document: doc }, timestamp: true }),
      get(1, 'reader', doc, undefined, exactly({ document: doc, percentage: 0.5, progress: '56', device: 'my kpw' })),
    ],
  },
];

export const V2_VECTORS: Vector[] = [
  {
    name: '#compatibility answers a lone identifier the way version 1 does, and says so',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', undefined, 0.32, xpointer, 'my kpw', { status: 200, body: { document: 'C1', match: 'exact' }, timestamp: true }),
      get(
        2,
        'reader',
        'C1',
        undefined,
        exactly({ document: 'C1', percentage: 0.32, progress: xpointer, device: 'my kpw', match: 'exact', progress_match: 'exact' }),
      ),
    ],
  },
  {
    name: '#compatibility names the match by the type the request gave it',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      get(2, 'reader', 'C1', ids(original), ok({ match: 'content', progress_match: 'content' })),
    ],
  },
  {
    name: '#compatibility answers an unknown document with an empty body',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      get(2, 'reader', 'C9', 'content:C9', exactly({})),
      get(2, 'reader', 'C9', undefined, exactly({})),
    ],
  },
  {
    name: '#compatibility still authorizes before reading or writing',
    source: V2_SPEC,
    steps: [get(2, 'wrong-key', 'C1', ids(original), refused(401, 2001)), update(2, 'wrong-key', 'C1', original, 0.32, xpointer, 'd', refused(401, 2001))],
  },
  {
    name: '#aliases finds a renamed and recompressed copy through an identifier it shares',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      get(2, 'reader', 'C2', ids(repack), ok({ document: 'C1', match: 'structure', progress: xpointer })),
    ],
  },
  {
    name: '#aliases returns the canonical digest so the next read need not guess',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      update(2, 'reader', 'C2', repack, 0.4, '/body/p[1]', 'pb', ok({ document: 'C1', match: 'structure' })),
      get(2, 'reader', 'C1', ids(original), ok({ progress: '/body/p[1]' })),
    ],
  },
  {
    name: "#aliases keeps one account's aliases away from another",
    source: V2_SPEC,
    steps: [update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'), get(2, 'other', 'C2', ids(repack), exactly({}))],
  },
  {
    name: '#aliases never shadows a document that exists in its own right',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      update(2, 'reader', 'C2', [{ type: 'content', value: 'C2' }], 0.1, '/body/p[2]', 'pb'),
      update(2, 'reader', 'C2', repack, 0.5, '/body/p[3]', 'pb'),
      get(2, 'reader', 'C2', 'content:C2', ok({ document: 'C2', progress: '/body/p[3]' })),
      get(2, 'reader', 'C1', 'content:C1', ok({ progress: xpointer })),
    ],
  },
  {
    name: '#xpointers separates how the document was found from who wrote the progress',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      update(2, 'reader', 'C3', edition, 0.5, '/body/DocFragment[3]/body/p[9]', 'pb'),
      get(2, 'reader', 'C1', ids(original), ok({ document: 'C1', match: 'content', progress_match: 'metadata' })),
    ],
  },
  {
    name: '#xpointers vouches for a repackaged copy that renders the same',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      update(2, 'reader', 'C2', repack, 0.5, '/body/DocFragment[4]/body/p[1]', 'pb'),
      get(2, 'reader', 'C1', ids(original), ok({ match: 'content', progress_match: 'structure' })),
    ],
  },
  {
    name: '#xpointers reports none when the reader shares nothing with the writer',
    source: V2_SPEC,
    adapted:
      'the spec overwrites the stored writer identifiers in Redis; here a writer reaches C1 through an alias the reader does not hold (filename:NN) and names only ZZ and NN',
    steps: [
      update(2, 'reader', 'C1', [...original, { type: 'filename', value: 'NN' }], 0.32, xpointer, 'my kpw'),
      update(
        2,
        'reader',
        'ZZ',
        [
          { type: 'content', value: 'ZZ' },
          { type: 'filename', value: 'NN' },
        ],
        0.4,
        xpointer,
        'pb',
        ok({ document: 'C1', match: 'filename' }),
      ),
      get(2, 'reader', 'C1', ids(original), ok({ match: 'content', progress_match: 'none' })),
    ],
  },
  {
    name: "#xpointers answers in the reader's order of preference",
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      get(2, 'reader', 'M', 'metadata:M,structure:S1,content:C1', ok({ match: 'metadata', progress_match: 'metadata' })),
      get(2, 'reader', 'C1', ids(original), ok({ match: 'content', progress_match: 'content' })),
    ],
  },
  {
    name: '#legacy records treats a version 1 record as written by the digest it is stored under',
    source: V2_SPEC,
    adapted: 'the spec writes the version 1 record into Redis; here a version 1 client pushes it',
    steps: [
      update(1, 'reader', 'C1', undefined, 0.32, xpointer, 'my kpw'),
      get(2, 'reader', 'C1', ids(original), ok({ match: 'content', progress_match: 'content' })),
    ],
  },
  {
    name: '#legacy records stops trusting recorded identifiers once the progress is replaced',
    source: V2_SPEC,
    adapted:
      "the spec's first write names C1 with the edition's list, which its own rule refuses (403, code 2003; asserted here); the progress it then sets in Redis is pushed by a version 1 client",
    steps: [
      update(2, 'reader', 'C1', edition, 0.5, '/body/DocFragment[3]/body/p[9]', 'pb', refused(403, 2003)),
      update(2, 'reader', 'C3', edition, 0.5, '/body/DocFragment[3]/body/p[9]', 'pb'),
      update(1, 'reader', 'C3', undefined, 0.6, xpointer, 'my kpw'),
      get(2, 'reader', 'C3', ids(edition), ok({ match: 'content', progress_match: 'content', progress: xpointer })),
    ],
  },
  {
    name: '#legacy records clears a stale identifier set when a later write names none',
    source: V2_SPEC,
    adapted: 'the Redis check of the stored set is left out; the answers that follow from it are checked',
    steps: [
      update(2, 'reader', 'C1', original, 0.32, xpointer, 'my kpw'),
      update(2, 'reader', 'C3', edition, 0.5, '/body/DocFragment[3]/body/p[9]', 'pb'),
      get(2, 'reader', 'C1', ids(original), ok({ progress_match: 'metadata' })),
      update(2, 'reader', 'C1', undefined, 0.4, '/body/p[7]', 'pb'),
      get(2, 'reader', 'C1', ids(original), ok({ match: 'content', progress_match: 'content' })),
    ],
  },
  {
    name: '#validation refuses an identifier list that does not begin with the document',
    source: V2_SPEC,
    steps: [update(2, 'reader', 'C1', repack, 0.32, xpointer, 'd', refused(403, 2003)), get(2, 'reader', 'C1', 'metadata:M', refused(403, 2003))],
  },
  {
    name: '#validation refuses a malformed or oversized list',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'C1', ['content:C1'], 0.32, xpointer, 'd', refused(403, 2003)),
      update(2, 'reader', 'C1', [{ type: 'content' }], 0.32, xpointer, 'd', refused(403, 2003)),
      update(
        2,
        'reader',
        'C1',
        [
          { type: 'content', value: 'C1' },
          { type: 'content', value: 'C2' },
        ],
        0.32,
        xpointer,
        'd',
        refused(403, 2003),
      ),
      get(2, 'reader', 'C1', 'content:C1,content:C2', refused(403, 2003)),
      get(2, 'reader', 'C1', 'C1', refused(403, 2003)),
      update(
        2,
        'reader',
        'C1',
        [{ type: 'content', value: 'C1' }, ...Array.from({ length: 8 }, (_, index) => ({ type: `t${index + 1}`, value: `v${index + 1}` }))],
        0.32,
        xpointer,
        'd',
        refused(403, 2003),
      ),
    ],
  },
  {
    name: '#validation still requires a document and the progress fields',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', undefined, undefined, 0.32, xpointer, 'd', { status: 403 }),
      update(2, 'reader', 'C1', original, undefined, xpointer, 'd', { status: 403 }),
    ],
  },
  {
    name: '#unservable document ids refuses a document the read route cannot serve, as version 1 does',
    source: V2_SPEC,
    steps: [
      update(2, 'reader', 'has-a-hyphen', [{ type: 'content', value: 'has-a-hyphen' }], 0.5, '10', 'kpw', refused(403, 2007)),
      update(1, 'reader', 'has-a-hyphen', undefined, 0.5, '10', 'kpw', refused(403, 2007)),
    ],
  },
  {
    name: '#unservable document ids still accepts a digest',
    source: V2_SPEC,
    steps: [update(2, 'reader', '0b229176d4e8db7f6d2b5a4952368d7a', [{ type: 'content', value: '0b229176d4e8db7f6d2b5a4952368d7a' }], 0.5, '10', 'kpw')],
  },
];

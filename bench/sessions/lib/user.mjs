// One user of the apps, as the mobile apps drive the API: open the app, open
// a book, read (a position save every 30 s, now and then a note, one search
// in a book's sample), go back to the library; sometimes a store search or a
// purchase redirect; then a pause before the next session. Times are of
// simulated time, run `speed` times faster than real time, so a short run
// carries the traffic of `users x speed` real users.

/** Tenant 1 (Northwind), its store host, and the free audiobook every member may open. */
export const TENANT = 1;
export const STORE_HOST = 'northwind.localhost:8080';
export const BOOK = 1003;
/** On sale in tenant 1 and owned by none of the benchmark's users: the purchase redirect answers 302. */
export const PURCHASABLE = 1002;
/**
 * The audiobook has no searchable text, and a fresh user owns no other book
 * of tenant 1: the one search of a session is in the sample (preview
 * session) of this EPUB, which any member may open, as a reader does who
 * looks into a book before buying it.
 */
export const SAMPLE = 1001;

/** The session model; the README lists it. Times in simulated seconds. */
export const MODEL = {
  /** Reading time of a session: uniform between these. */
  readSeconds: [120, 600],
  /** One position save per this much reading. */
  saveEverySeconds: 30,
  /** Chance of a note after a save (one every ~5 minutes of reading). */
  noteChance: 0.1,
  /** Chance of a store search when the app opens, and of a purchase redirect after it. */
  storeSearchChance: 0.25,
  purchaseChance: 0.05,
  /** Between two sessions of a user: uniform between these. */
  pauseSeconds: [60, 300],
};

/** Simulated seconds of one session and the pause after it, on average. */
export const MEAN_CYCLE_SECONDS = (MODEL.readSeconds[0] + MODEL.readSeconds[1]) / 2 + (MODEL.pauseSeconds[0] + MODEL.pauseSeconds[1]) / 2;
/** The share of a cycle a user spends in a session. */
const READING_SHARE = (MODEL.readSeconds[0] + MODEL.readSeconds[1]) / 2 / MEAN_CYCLE_SECONDS;

const STORE_QUERIES = ['atlas', 'harbor', 'garden', 'ferry', 'lighthouse', 'birds', 'night', 'almanac'];
/** Words of the sample's first chapter (each search finds something). */
const SAMPLE_QUERIES = ['keeper', 'lamp', 'the lamp', 'spiral stairs', 'gallery'];

/**
 * Runs one user's sessions until `stopping()`.
 * @param user   { email, token, ip }
 * @param ctx    { send, speed, random, rampMs, wait(ms), stopping(), sessions: { started, completed } }
 */
export async function runUser(user, ctx) {
  const { random } = ctx;
  const between = ([low, high]) => low + random() * (high - low);
  const sleep = (simulatedSeconds) => ctx.wait((simulatedSeconds * 1000) / ctx.speed);
  const jwt = { authorization: `Bearer ${user.token}`, 'x-forwarded-for': user.ip };
  const store = { ...jwt, 'x-svc-tenant-id': String(TENANT) };
  const get = (name, path, headers, expected = 200) => ctx.send(name, expected, { path, headers });

  // Each user starts at a random point of the ramp, in the state a user is found in at a random
  // moment: reading (the share of a cycle spent reading), with part of a session left, or in a
  // pause, with part of it left. Started at the beginning of a session instead, the window after
  // a ramp of one cycle sees too few sessions opening and too many reading (README).
  await ctx.wait(random() * ctx.rampMs);
  let share = 1;
  if (random() < READING_SHARE) share = random();
  else await sleep(between(MODEL.pauseSeconds) * random());
  while (!ctx.stopping()) {
    ctx.sessions.started += 1;
    // Open the app: the three screens the home tab shows, at once.
    await Promise.all([
      get('GET /api/v2/user', '/api/v2/user', jwt),
      get('GET /api/v2/library', '/api/v2/library', store),
      get('GET /api/v2/user/continue-reading', '/api/v2/user/continue-reading', jwt),
    ]);
    if (random() < MODEL.storeSearchChance) {
      const query = STORE_QUERIES[Math.floor(random() * STORE_QUERIES.length)];
      await get('GET /api/v2/search/store?query={word}', `/api/v2/search/store?query=${encodeURIComponent(query)}`, store);
      if (random() < MODEL.purchaseChance / MODEL.storeSearchChance) {
        await get(
          `GET /app/purchase/${PURCHASABLE} (store host)`,
          `/app/purchase/${PURCHASABLE}?token=${user.token}`,
          { host: STORE_HOST, 'x-forwarded-for': user.ip },
          302,
        );
      }
    }
    if (ctx.stopping()) break;

    // Open the book: a reader session, then its settings and the user's notes in it.
    const opened = await ctx.send(`POST /api/v2/reader/${BOOK}/sessions`, 200, { method: 'POST', path: `/api/v2/reader/${BOOK}/sessions`, headers: store });
    const readerToken = opened.body?.token;
    if (opened.status !== 200 || !readerToken) {
      await sleep(between(MODEL.pauseSeconds));
      continue;
    }
    const inBook = { ...store, 'reader-token': readerToken };
    await Promise.all([
      get(`GET /api/v2/reader/settings/${BOOK}`, `/api/v2/reader/settings/${BOOK}`, inBook),
      get('GET /api/v2/reader/notes', '/api/v2/reader/notes', inBook),
    ]);

    // Read: a save every 30 s, a note now and then, one search in the book.
    const saves = Math.max(1, Math.round((between(MODEL.readSeconds) * share) / MODEL.saveEverySeconds));
    share = 1;
    const searchAt = Math.floor(random() * saves);
    const positions = positionsOf(opened.body);
    for (let k = 0; k < saves && !ctx.stopping(); k++) {
      await sleep(MODEL.saveEverySeconds);
      await ctx.send(`PUT /api/v2/reader/${BOOK}/last-location`, 200, {
        method: 'PUT',
        path: `/api/v2/reader/${BOOK}/last-location`,
        headers: store,
        body: { lastLocation: positions(k) },
      });
      if (k === searchAt) {
        const sample = await ctx.send(`POST /api/v2/reader/${SAMPLE}/sessions?preview=true`, 200, {
          method: 'POST',
          path: `/api/v2/reader/${SAMPLE}/sessions?preview=true`,
          headers: store,
        });
        const query = SAMPLE_QUERIES[Math.floor(random() * SAMPLE_QUERIES.length)];
        if (sample.body?.token) {
          await get('GET /api/v2/reader/issue-text-content?search={words}', `/api/v2/reader/issue-text-content?search=${encodeURIComponent(query)}`, {
            ...store,
            'reader-token': sample.body.token,
          });
        }
      }
      if (random() < MODEL.noteChance) {
        await ctx.send('POST /api/v2/reader/notes', 201, { method: 'POST', path: '/api/v2/reader/notes', headers: inBook, body: noteOf(k, random) });
      }
    }
    if (ctx.stopping()) break;

    // Back to the library: the app shows the home tab again, with the book now in continue-reading.
    await Promise.all([get('GET /api/v2/library', '/api/v2/library', store), get('GET /api/v2/user/continue-reading', '/api/v2/user/continue-reading', jwt)]);
    ctx.sessions.completed += 1;
    await sleep(between(MODEL.pauseSeconds));
  }
}

/**
 * Positions a reader moves through in the audiobook: seconds within its
 * tracks as listening goes on (a seek past a track's end is a 422), from the
 * durations the reader session lists.
 */
function positionsOf(session) {
  const tracks = (session?.tracks ?? session?.content?.tracks ?? session?.audio?.tracks ?? [])
    .map((track) => Number(track.duration ?? track.duration_seconds ?? track.length ?? 0))
    .filter((seconds) => seconds >= 2);
  if (!tracks.length) return (k) => ({ currentSeek: k % 6, currentTrack: 1 });
  const total = tracks.reduce((sum, seconds) => sum + Math.floor(seconds) - 1, 0);
  return (k) => {
    let at = (k * MODEL.saveEverySeconds) % total;
    for (const [track, seconds] of tracks.entries()) {
      const usable = Math.floor(seconds) - 1;
      if (at < usable) return { currentSeek: at, currentTrack: track };
      at -= usable;
    }
    return { currentSeek: 0, currentTrack: 0 };
  };
}

function noteOf(k, random) {
  return {
    uuid: crypto.randomUUID(),
    color: ['yellow', 'green', 'blue', 'pink'][k % 4],
    totalLength: 24,
    totalText: `session highlight ${String(k % 10_000).padStart(4, '0')}`,
    annotationText: random() < 0.5 ? 'a note written during a benchmark session' : undefined,
    startPage: 1,
    startPageStartOffset: Math.floor(random() * 500),
    startPageLength: 24,
    endPage: 1,
    endPageLength: 24,
  };
}

// Position sync that cannot silently lose a newer position, end to
// end against ./dev up: the ETag of the stored position on the save and on the
// reader settings, If-Match honoured (412 with the current position when the
// client's copy is stale), and saves without If-Match exactly as before.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, v2 } from './reader-helpers.js';

// 1003: the free Northwind audiobook, readable by any member.
const ISSUE = 1003;
const TENANT = 1;

describe('position sync with ETag and If-Match (running stack)', () => {
  let user: Tokens;
  beforeAll(async () => {
    user = await loginByEmail(uniqueEmail('position-sync'));
  });

  const save = (lastLocation: unknown, ifMatch?: string) =>
    api('PUT', `/api/v2/reader/${ISSUE}/last-location`, {
      token: user.access_token,
      headers: { ...v2(TENANT), ...(ifMatch !== undefined && { 'if-match': ifMatch }) },
      body: { lastLocation },
    });
  const settings = () => api('GET', `/api/v2/reader/settings/${ISSUE}`, { token: user.access_token, headers: v2(TENANT) });

  it('when no position is stored, then the settings carry no ETag, and If-Match (even *) is 412 with a null position', async () => {
    expect((await settings()).headers.get('etag')).toBeNull();
    for (const ifMatch of ['"anything"', '*']) {
      const refused = await save({ currentSeek: 1, currentTrack: 0 }, ifMatch);
      expect(refused.status).toBe(412);
      expect(refused.body).toEqual({ message: expect.any(String), last_location: null });
    }
  });

  it('when two devices save from the same version, then the second gets 412 with the first one’s position, and nothing of its own is saved', async () => {
    const first = await save({ currentSeek: 0.5, currentTrack: 0 });
    expect(first.status).toBe(200);
    const seen = first.headers.get('etag');
    expect(seen).toMatch(/^"[A-Za-z0-9_-]{22}"$/);

    // The settings name the same stored position.
    const read = await settings();
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(seen);
    expect(read.body.issue.user.last_location).toEqual({ currentSeek: 0.5, currentTrack: 0 });

    // Device A saves over what it saw: accepted, a new version.
    const deviceA = await save({ currentSeek: 1.5, currentTrack: 1 }, seen!);
    expect(deviceA.status).toBe(200);
    expect(deviceA.body).toEqual({ last_location: { currentSeek: 1.5, currentTrack: 1 } });
    const current = deviceA.headers.get('etag');
    expect(current).not.toBe(seen);

    // Device B still holds the old version: stale.
    const deviceB = await save({ currentSeek: 0.2, currentTrack: 0 }, seen!);
    expect(deviceB.status).toBe(412);
    expect(deviceB.body).toEqual({ message: expect.any(String), last_location: { currentSeek: 1.5, currentTrack: 1 } });
    expect(deviceB.headers.get('etag')).toBe(current);
    expect((await settings()).body.issue.user.last_location).toEqual({ currentSeek: 1.5, currentTrack: 1 });

    // With the current version (or a list holding it, or *) it goes through.
    const retried = await save({ currentSeek: 0.2, currentTrack: 0 }, `"stale", ${current}`);
    expect(retried.status).toBe(200);
    expect((await save({ currentSeek: 0.3, currentTrack: 0 }, '*')).status).toBe(200);
  });

  it('when the client sends a weak or malformed If-Match, then it never matches (412)', async () => {
    const stored = await save({ currentSeek: 0.25, currentTrack: 0 });
    const etag = stored.headers.get('etag')!;
    expect((await save({ currentSeek: 0.75, currentTrack: 0 }, `W/${etag}`)).status).toBe(412);
    expect((await save({ currentSeek: 0.75, currentTrack: 0 }, 'not an etag')).status).toBe(412);
  });

  it('when no If-Match is sent, then the save is unconditional, as it always was (last write wins)', async () => {
    const response = await save({ currentSeek: 1.25, currentTrack: 1 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ last_location: { currentSeek: 1.25, currentTrack: 1 } });
    expect((await settings()).body.issue.user.last_location).toEqual({ currentSeek: 1.25, currentTrack: 1 });
  });

  it('when an If-None-Match equal to the position ETag is sent to the settings, then the full settings still come (200, not 304)', async () => {
    const etag = (await save({ currentSeek: 0.1, currentTrack: 0 })).headers.get('etag')!;
    const read = await api('GET', `/api/v2/reader/settings/${ISSUE}`, { token: user.access_token, headers: { ...v2(TENANT), 'if-none-match': etag } });
    expect(read.status).toBe(200);
    expect(read.body.token).toEqual(expect.any(String));
  });
});

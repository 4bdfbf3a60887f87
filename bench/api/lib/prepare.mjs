// What the load needs before it starts: a reader-token per user for the
// benchmark's issue, a note list of a fixed size for the users whose lists are
// read (so the GET notes rows measure the same list on every run: repeated
// uuids return the existing note), and a taxonomy shelf to filter on.
import { ISSUE, TENANT, noteBody } from './endpoints.mjs';
import { expectStatus } from './http.mjs';

export const NOTES_PER_READER = 20;

export async function prepare(gateway, users, noteReaders) {
  const v2 = (user, extra = {}) => ({ token: user.token, headers: { 'x-svc-tenant-id': String(TENANT), ...extra } });
  for (const user of users) {
    const session = await expectStatus(gateway, 200, 'POST', `/api/v2/reader/${ISSUE}/sessions`, v2(user));
    user.readerToken = session.body.token;
  }
  for (const user of noteReaders) {
    for (let n = 0; n < NOTES_PER_READER; n++) {
      const uuid = `bench-api-${user.email}-${n}`;
      await expectStatus(gateway, 201, 'POST', '/api/v2/reader/notes', { ...v2(user, { 'reader-token': user.readerToken }), body: noteBody(uuid, n) });
    }
  }
  const library = await expectStatus(gateway, 200, 'GET', '/api/v2/library', v2(users[0]));
  const shelf = library.body.data.find((section) => !['section'].includes(section.filter_name)) ?? library.body.data.at(-1);
  return { shelf: { name: shelf.filter_name, value: String(shelf.filter_value) } };
}

// The shape of the scale dataset, shared by its generator and by the API
// benchmark (which logs some of these users in). Everything is a function of
// the record's number, so a re-run writes the same documents with the same ids.
// Ids sit far above the demo dataset's and above what the services' own
// sequences reach in practice (the sequences are not moved, so the demo and
// the tests keep their usual ids).

export const FULL = {
  users: 20_000,
  sessions: 60_000,
  issues: 100_000,
  grants: 100_000,
  positions: 200_000,
  notes: 50_000,
};

/** The demo dataset's tenants (fixtures/demo-dataset.json). */
export const TENANTS = [1, 2, 3, 4, 5, 6];

export const USER_ID_BASE = 1_000_000;
export const ISSUE_ID_BASE = 1_000_000;
export const NOTE_ID_BASE = 1_000_000_000;

export function counts(factor) {
  return Object.fromEntries(Object.entries(FULL).map(([key, value]) => [key, Math.max(1, Math.round(value * factor))]));
}

const pad = (n) => String(n).padStart(5, '0');

/** User n (1-based). */
export const scaleUserEmail = (n) => `scale-${pad(n)}@example.test`;
export const scaleUserId = (n) => USER_ID_BASE + n;

/** Tenants of user n: one of the six in turn, and every fourth user also in tenant 1 (the biggest store). */
export function scaleUserTenants(n) {
  const primary = TENANTS[(n - 1) % TENANTS.length];
  return n % 4 === 0 && primary !== 1 ? [primary, 1] : [primary];
}

/** The first `count` scale users who are members of tenant 1 among `users`. */
export function tenantOneUsers(count, users) {
  const found = [];
  for (let n = 1; n <= users && found.length < count; n++) if (scaleUserTenants(n).includes(1)) found.push(n);
  return found;
}

/** Issue k (1-based) lives in tenant TENANTS[(k - 1) % 6]. */
export const scaleIssueId = (k) => ISSUE_ID_BASE + k;
export const scaleIssueTenant = (k) => TENANTS[(k - 1) % TENANTS.length];

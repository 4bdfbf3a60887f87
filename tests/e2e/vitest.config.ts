import { defineProject } from 'vitest/config';

// Runs against the stack ./dev up started (gateway on 8080, MailDev on 1080).
// The publishing test puts issues on sale in store 1, whose exact listings
// other files check while they run in parallel: it has its own run
// (vitest.publishing.config.ts), after this one.
export default defineProject({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    exclude: ['test/publishing.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

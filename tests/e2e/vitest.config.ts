import { defineProject } from 'vitest/config';

// Runs against the stack ./dev up started (gateway on 8080, MailDev on 1080).
export default defineProject({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

// The fault suite (./dev chaos): it kills and restarts parts of the stack
// ./dev up started, so it runs alone, after every other test (./dev test),
// one file at a time, never beside the end-to-end tests.
export default defineConfig({
  test: {
    name: 'chaos',
    root: import.meta.dirname,
    include: ['chaos/**/*.test.ts'],
    globalSetup: ['../../test-setup/global-setup.ts'],
    fileParallelism: false,
    // Its answers (503s by design) are not part of the contract check.
    env: { E2E_CONTRACT: 'off' },
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});

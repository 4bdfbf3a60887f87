import { defineConfig } from 'vitest/config';

// The publishing test (./dev test, after the end-to-end run and before the
// contract check, which reads its answers too): alone, because it changes
// what store 1 lists while it runs; it takes back what it published at the end.
export default defineConfig({
  test: {
    name: 'publishing',
    root: import.meta.dirname,
    include: ['test/publishing.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['../../test-setup/global-setup.ts'],
  },
});

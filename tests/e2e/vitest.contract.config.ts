import { defineConfig } from 'vitest/config';

// The contract check (./dev test, after the end-to-end tests): the answers
// those tests received against the OpenAPI document (contract/).
export default defineConfig({
  test: {
    name: 'contract',
    root: import.meta.dirname,
    include: ['contract/**/*.test.ts'],
    globalSetup: ['../../test-setup/global-setup.ts'],
    env: { E2E_CONTRACT: 'off' },
  },
});

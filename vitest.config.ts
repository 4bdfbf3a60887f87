// One vitest run for the whole repo: a project per package and service.
// The global setup resolves the real infrastructure once per run (containers
// where a Docker engine exists, else the local stack of ./dev infra) and
// exports its URLs to every test worker.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'services/*', 'tests/*', 'deploy'],
    globalSetup: ['./test-setup/global-setup.ts'],
    reporters: ['default'],
  },
});

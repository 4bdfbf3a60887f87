// Settings every project's vitest config shares.
import { defineProject } from 'vitest/config';

export function folioProject(name: string) {
  return defineProject({
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
}

import { defineProject } from 'vitest/config';

// Reads the source tree only: no infrastructure.
export default defineProject({
  test: {
    name: 'architecture',
    include: ['test/**/*.test.ts'],
  },
});

// ESLint for the whole repository (`pnpm lint`): typescript-eslint's
// recommended rules plus the project's own boundary rules (docs/architecture.md,
// "Boundary rules"):
//   - domain/ may not import data/ (or grpc/, events/, peers/),
//     mongoose, @folio/mongo, gRPC, express, amqplib or ioredis. The files that
//     broke it before it was enforced are listed in
//     tests/architecture/test/domain-imports-baseline.json (the layering test
//     keeps that list shrinking); they are exempt here until they are fixed.
//   - production code reads no process.env outside config.ts (and the seed and
//     CLI entry points, which take their environment like config does).
//   - production lines are at most 160 characters.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const legacyDomainFiles = Object.keys(JSON.parse(readFileSync(new URL('./tests/architecture/test/domain-imports-baseline.json', import.meta.url), 'utf8')));

const FORBIDDEN_IN_DOMAIN = {
  patterns: [
    {
      group: ['../data', '../data/*', '../../data/*', '../grpc/*', '../events/*', '../peers/*'],
      message: 'domain/ names a port or repository interface; the adapter lives outside domain/.',
    },
    { group: ['mongoose', '@folio/mongo', '@grpc/*', 'express', 'amqplib', 'ioredis'], message: 'domain/ imports no storage or transport library.' },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/proto/src/gen/**',
      '.local/**',
      'bench/**',
      'tools/**',
      'deploy/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Unused bindings are errors, except the deliberately ignored (`_name`, rest siblings that drop keys).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
      // Tests and a few adapters speak to untyped JSON; `any` is visible in review, not an error.
      '@typescript-eslint/no-explicit-any': 'off',
      // `catch {}` with a comment that says why is the house style.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Control characters are matched on purpose (ASCII fast paths, characters XML 1.0 forbids).
      'no-control-regex': 'off',
      // A `let` that a closure reads before its one assignment cannot be a const (temporal dead zone).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['services/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment once in config.ts (typed config); pass the parsed config.' },
      ],
    },
  },
  {
    // Where the environment is read: the typed config, and the seed / CLI / test-harness entry points.
    files: ['**/src/config.ts', '**/src/seed.ts', '**/src/ingest.ts', 'packages/config/src/**', 'packages/testing/src/**', 'packages/telemetry/src/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    // Unit tests beside the code may arrange with the real adapters.
    ignores: [...legacyDomainFiles, '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', FORBIDDEN_IN_DOMAIN] },
  },
);

// The layering rule of every service (docs/architecture.md, "Boundary rules"):
// domain/ holds use cases, rules and the repository interfaces it needs, and
// imports no storage or transport: not data/, not mongoose or @folio/mongo,
// not gRPC, not express. Document mapping lives in data/, transport in grpc/,
// events/ and http/. The notes service is the model.
//
// Files that broke the rule before it was enforced are listed in
// domain-imports-baseline.json with the imports they may still make. The list
// may only shrink: a new file or a new import that breaks the rule fails, and
// so does a listed file that no longer breaks it (remove it from the list in
// the same change).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const baselinePath = join(here, 'domain-imports-baseline.json');
const baseline = JSON.parse(readFileSync(baselinePath, 'utf8')) as Record<string, string[]>;

/** Packages that are storage or transport. */
const FORBIDDEN_PACKAGES = ['mongoose', '@folio/mongo', '@grpc/grpc-js', '@grpc/proto-loader', 'express', 'amqplib', 'ioredis'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function domainFiles(): string[] {
  return readdirSync(join(root, 'services')).flatMap((service) => {
    const domain = join(root, 'services', service, 'src', 'domain');
    try {
      statSync(domain);
    } catch {
      return [];
    }
    return walk(domain).filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts'));
  });
}

/** The imports of a file that break the rule, as written. */
function violations(path: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
  const srcDir = path.slice(0, path.lastIndexOf(`${sep}domain${sep}`));
  return importedFiles
    .map((file) => file.fileName)
    .filter((specifier) => {
      if (specifier.startsWith('.')) {
        const target = relative(srcDir, resolve(dirname(path), specifier));
        return !target.startsWith('domain') && /^(data|grpc|events|http|peers)(\/|$)/.test(target.split(sep).join('/'));
      }
      return FORBIDDEN_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
    })
    .sort();
}

describe('layering: domain/ imports no storage and no transport', () => {
  const found: Record<string, string[]> = {};
  for (const path of domainFiles()) {
    const bad = violations(path);
    if (bad.length) found[relative(root, path).split(sep).join('/')] = [...new Set(bad)];
  }

  // LAYERING_BASELINE_UPDATE=1 rewrites the list from the tree (only when a change moves code, never to hide a new violation).
  if (process.env.LAYERING_BASELINE_UPDATE === '1') {
    const sorted = Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(baselinePath, `${JSON.stringify(sorted, null, 2)}\n`);
    Object.assign(baseline, sorted);
  }

  it('when a domain file imports data/, mongoose, gRPC or express, then it is a listed legacy file with exactly those imports', () => {
    const unlisted = Object.entries(found)
      .map(([file, imports]) => [file, imports.filter((specifier) => !(baseline[file] ?? []).includes(specifier))] as const)
      .filter(([, imports]) => imports.length);
    expect(Object.fromEntries(unlisted), 'new layering violations: put a repository interface in domain/ and the mapping in data/').toEqual({});
  });

  it('when a listed legacy file no longer breaks the rule, then it is removed from the list (the list only shrinks)', () => {
    const fixed = Object.keys(baseline).filter((file) => existsSync(join(root, file)) && !found[file]);
    expect(fixed, 'fixed: remove these from domain-imports-baseline.json').toEqual([]);
  });

  it('when the model service (notes) is scanned, then it has no violation at all', () => {
    expect(Object.keys(found).filter((file) => file.startsWith('services/notes/'))).toEqual([]);
  });
});

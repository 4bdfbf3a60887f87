// The demo dataset (fixtures/demo-dataset.json at the repository root) that
// the component tests seed their services with.
import { readFileSync } from 'node:fs';

/** The whole dataset, typed as the part the caller reads (each service's seed declares its own). */
export function demoDataset<T>(): T {
  return JSON.parse(readFileSync(new URL('../../../fixtures/demo-dataset.json', import.meta.url), 'utf8')) as T;
}

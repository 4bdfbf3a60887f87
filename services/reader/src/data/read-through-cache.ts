// Reads through a repository's cache when it has one: the manifests and the
// sessions repositories share it.
import type { ReferenceCache } from '@folio/messaging';

/** Through `cache` when the repository has one (the service's own store), else straight to the store. */
export function readThroughCache<K, V>(cache: ReferenceCache<K, V> | undefined, key: K, load: () => Promise<V | null>): Promise<V | null> {
  return cache ? cache.getPresent(key, load) : load();
}

// Resolves the real infrastructure once for the whole run and exports its
// URLs to the test workers through the environment.
import { exportInfra, resolveInfra } from '@folio/testing';

let stop: (() => Promise<void>) | undefined;

export async function setup() {
  const resolved = await resolveInfra();
  exportInfra(resolved.infra);
  stop = resolved.stop;
}

export async function teardown() {
  await stop?.();
}

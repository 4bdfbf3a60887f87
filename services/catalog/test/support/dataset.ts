// The demo dataset every service of the component tests is seeded with.
import { demoDataset } from '@folio/testing';

export interface DemoDataset {
  users: { email: string; tenants: number[] }[];
  collections: { tenant_id: number; slug: string }[];
  issues: { id: number; tenant_id: number; name: string }[];
  [key: string]: unknown;
}

export const dataset = demoDataset<DemoDataset>();

/** Identity's seed numbers users 1..n in dataset order. */
export function userId(email: string): number {
  const index = dataset.users.findIndex((user) => user.email === email);
  if (index < 0) throw new Error(`no user ${email} in the dataset`);
  return index + 1;
}

export const ANA = userId('ana@example.com');
export const BRUNO = userId('bruno@example.com');
export const CARLA = userId('carla@example.com');
export const FABIO = userId('fabio@example.com');

// The client headers of the spec, read leniently where the spec allows a
// default and strictly where a wrong value must be reported.
import type { Request } from 'express';
import { AppVersion } from '@folio/app-version';
import { langOf, type Lang } from '../render/lang.js';

export const HEADER = {
  svcTenant: 'X-Svc-Tenant-Id',
  appTenant: 'X-CustomApp-Tenant-Id',
  lang: 'X-App-Lang',
  appBaseVersion: 'X-AppBase-Version',
  appVersion: 'X-App-Version',
  readerToken: 'reader-token',
} as const;

export const DEFAULT_APP_TENANT_ID = 1;
const MAX_INT32 = 2_147_483_647;

/** A positive int32 written as plain digits, or undefined. */
export function positiveInt(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,10}$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return value >= 1 && value <= MAX_INT32 ? value : undefined;
}

/** X-CustomApp-Tenant-Id: default 1; `invalid` when present but not a positive integer. */
export function appTenantOf(req: Request): number | 'invalid' {
  const raw = req.get(HEADER.appTenant);
  if (raw === undefined || raw.trim() === '') return DEFAULT_APP_TENANT_ID;
  return positiveInt(raw) ?? 'invalid';
}

export interface ClientHeaders {
  lang: Lang;
  /** X-AppBase-Version when it parses; an unreadable value counts as absent. */
  appBaseVersion: AppVersion | undefined;
  appVersion: string | undefined;
}

export function clientHeadersOf(req: Request): ClientHeaders {
  const appVersion = req.get(HEADER.appVersion)?.trim().slice(0, 64);
  return {
    lang: langOf(req.get(HEADER.lang)),
    appBaseVersion: AppVersion.parse(req.get(HEADER.appBaseVersion)),
    appVersion: appVersion ? appVersion : undefined,
  };
}

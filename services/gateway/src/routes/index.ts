// The route table: every endpoint of the spec, in one list.
import type { Route } from '../http/route.js';
import { authRoutes } from './auth.js';
import { contentRoutes } from './content.js';
import { deviceKeyRoutes } from './device-keys.js';
import { helpRoutes } from './help.js';
import { integrationRoutes, integrationRoutesV1 } from './integrations.js';
import { kosyncRoutes } from './kosync.js';
import { libraryRoutes } from './library.js';
import { noteRoutes } from './notes.js';
import { opdsProgressionRoutes } from './opds-progression.js';
import { opdsRoutes } from './opds.js';
import { publisherContentRoutes } from './publisher/content.js';
import { publisherIssueRoutes } from './publisher/issues.js';
import { publisherOfferRoutes } from './publisher/offers.js';
import { publisherStaffRoutes } from './publisher/staff.js';
import { purchaseRoutes } from './purchase.js';
import { pushRoutes } from './push.js';
import { readerRoutes } from './reader.js';
import { searchRoutes } from './search.js';
import { tenantRoutes } from './tenants.js';
import { userRoutes } from './user.js';
import { v1Routes } from './v1.js';

export const routeTable: readonly Route[] = [
  ...authRoutes,
  ...userRoutes,
  ...pushRoutes,
  ...deviceKeyRoutes,
  ...tenantRoutes,
  ...helpRoutes,
  ...libraryRoutes,
  ...searchRoutes,
  ...readerRoutes,
  ...contentRoutes,
  ...noteRoutes,
  ...integrationRoutes,
  ...v1Routes,
  ...integrationRoutesV1,
  ...purchaseRoutes,
  ...opdsRoutes,
  ...opdsProgressionRoutes,
  ...kosyncRoutes,
  ...publisherIssueRoutes,
  ...publisherContentRoutes,
  ...publisherOfferRoutes,
  ...publisherStaffRoutes,
];

// The publisher API's staff, API keys and audit log (owners only).
import type { Route } from '../../http/route.js';

export const publisherStaffRoutes: Route[] = [];

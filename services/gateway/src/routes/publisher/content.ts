// The publisher API's content upload (the file as the request body) and its ingest status.
import type { Route } from '../../http/route.js';

export const publisherContentRoutes: Route[] = [];

// The publisher API's offers (how an issue is sold) and grants (access a publisher assigns).
import type { Route } from '../../http/route.js';

export const publisherOfferRoutes: Route[] = [];

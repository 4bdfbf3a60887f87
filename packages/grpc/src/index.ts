// gRPC plumbing every service shares: servers whose handlers are plain async
// functions, request context carried in metadata, domain errors mapped to
// statuses, grpc.health.v1, graceful shutdown, and promise clients that
// always send a deadline.
export * from './context.js';
export * from './server.js';
export * from './client.js';
export * from './shutdown.js';

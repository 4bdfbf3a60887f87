// The test harness: where the real dependencies are, a fresh database and
// queue names per test file, the demo dataset, the MailDev inbox, a test
// file's topology on the shared broker (observing events, cleaning up), the
// rejection of a call, UNIMPLEMENTED handlers for gRPC stand-ins, and a TCP
// proxy that can cut a connection to a real broker (to test outages without
// stopping shared infra).
export * from './infra.js';
export * from './names.js';
export * from './ports.js';
export * from './fixtures.js';
export * from './maildev.js';
export * from './broker.js';
export * from './failure.js';
export * from './grpc.js';
export * from './tcp-proxy.js';
export * from './wait.js';

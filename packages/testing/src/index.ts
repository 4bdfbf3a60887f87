// The test harness: where the real dependencies are, a fresh database and
// queue names per test file, the MailDev inbox, and a TCP proxy that can cut
// a connection to a real broker (to test outages without stopping shared infra).
export * from './infra.js';
export * from './names.js';
export * from './maildev.js';
export * from './tcp-proxy.js';
export * from './wait.js';

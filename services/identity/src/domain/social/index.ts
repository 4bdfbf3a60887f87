export * from './provider.js';
export { GoogleProvider } from './google.js';
export { FacebookProvider } from './facebook.js';
export { AppleProvider } from './apple.js';

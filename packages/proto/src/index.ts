// Generated gRPC contracts of every service, one namespace per proto package.
export * as identity from './gen/svc/identity/v1/identity_service.js';
export * as catalog from './gen/svc/catalog/v1/catalog_service.js';
export * as commerce from './gen/svc/commerce/v1/commerce_service.js';
export * as reader from './gen/svc/reader/v1/reader_service.js';
// ReaderSyncService: the same proto package (svc.reader.v1), its own file.
export * as readerSync from './gen/svc/reader/v1/reader_sync_service.js';
export * as notes from './gen/svc/notes/v1/notes_service.js';
export * as integrations from './gen/svc/integrations/v1/integrations_service.js';

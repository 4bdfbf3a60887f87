import { Metadata } from '@grpc/grpc-js';
import { currentContext, newRequestId, type RequestContext } from '@folio/logger';

const REQUEST_ID = 'x-request-id';
const TENANT_ID = 'x-tenant-id';
const USER_ID = 'x-user-id';

/** Writes the caller's context (request id, tenant, user) into outgoing metadata. */
export function contextToMetadata(context: RequestContext | undefined = currentContext(), metadata = new Metadata()): Metadata {
  metadata.set(REQUEST_ID, context?.requestId ?? newRequestId());
  if (context?.tenantId !== undefined) metadata.set(TENANT_ID, String(context.tenantId));
  if (context?.userId !== undefined) metadata.set(USER_ID, String(context.userId));
  return metadata;
}

/** Reads the caller's context from incoming metadata; a missing request id gets a new one. */
export function contextFromMetadata(metadata: Metadata): RequestContext {
  const read = (key: string) => {
    const value = metadata.get(key)[0];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  const asInt = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);
  const context: RequestContext = { requestId: read(REQUEST_ID)?.slice(0, 128) ?? newRequestId() };
  const tenantId = asInt(read(TENANT_ID));
  const userId = asInt(read(USER_ID));
  if (tenantId !== undefined) context.tenantId = tenantId;
  if (userId !== undefined) context.userId = userId;
  return context;
}

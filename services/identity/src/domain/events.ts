// The events identity publishes on its exchange (`identity.events`) and the
// shapes of their payloads (version 1). Other services consume them, so a
// change here is a new version, not an edit.

export const EVENT = {
  helpRequested: 'help.requested',
  accountDeletionRequested: 'account.deletion_requested',
  accountDeleted: 'account.deleted',
  pushRegistered: 'push.registered',
  pushUnregistered: 'push.unregistered',
  /** Payload and readers: TenantUpdatedPayload in @folio/messaging (cache invalidation). */
  tenantUpdated: 'tenant.updated',
} as const;

export type HelpRoute = 'support' | 'engineering' | 'messaging';

export interface HelpRequestedPayload {
  user_id: number;
  email: string;
  app_tenant_id: number;
  subject: string;
  route: HelpRoute;
  message: string;
  lang: string;
  engine_version: string | null;
  device: string | null;
  so: string | null;
  app_version: string | null;
  app_base_version: string | null;
}

export interface AccountDeletionRequestedPayload {
  user_id: number;
  email: string;
}

export interface AccountDeletedPayload {
  user_id: number;
  email: string;
}

export interface PushRegisteredPayload {
  user_id: number;
  tenant_id: number;
  fcm_token: string;
  device_token: string | null;
  platform: 'ios' | 'android' | null;
}

export interface PushUnregisteredPayload {
  user_id: number;
  device_token: string;
  platform: 'ios' | 'android' | null;
  tenant_ids: number[];
}

// Push messaging registrations (POST/DELETE /api/v2/user/push-notifications):
// one record per user, tenant and device, upserted on every registration.
import { invalidFields, nulFieldErrors } from './errors.js';
import { EVENT, type PushRegisteredPayload, type PushUnregisteredPayload } from './events.js';
import type { EventSink } from './ports.js';
import type { IdentityRepositories } from './repositories.js';
import type { TenantDirectory } from './tenants.js';

export type PushPlatform = 'ios' | 'android';

export class PushRegistrations {
  constructor(
    private readonly store: Pick<IdentityRepositories, 'pushRegistrations'>,
    private readonly tenants: TenantDirectory,
    private readonly events: EventSink,
  ) {}

  async register(request: { userId: number; tenantId: number; fcmToken: string; deviceToken?: string | undefined; platform: PushPlatform | null }) {
    const fcmToken = (request.fcmToken ?? '').trim();
    if (!fcmToken) throw invalidFields({ fcm_token: ['The fcm token field is required.'] });
    const deviceToken = request.deviceToken?.trim() || null;
    const nul = nulFieldErrors({ fcm_token: fcmToken, device_token: deviceToken });
    if (Object.keys(nul).length) throw invalidFields(nul);
    const tenantId = (await this.tenants.appTenant(request.tenantId))._id;
    await this.store.pushRegistrations.upsert(
      {
        user_id: request.userId,
        tenant_id: tenantId,
        device_key: deviceToken ?? fcmToken,
        fcm_token: fcmToken,
        device_token: deviceToken,
        platform: request.platform,
      },
      new Date(),
    );
    await this.events.publish<PushRegisteredPayload>(
      EVENT.pushRegistered,
      { user_id: request.userId, tenant_id: tenantId, fcm_token: fcmToken, device_token: deviceToken, platform: request.platform },
      { tenantId },
    );
  }

  /** Removes a device's registrations in every tenant. */
  async unregister(request: { userId: number; deviceToken?: string | undefined; platform: PushPlatform | null }) {
    const deviceToken = request.deviceToken?.trim();
    if (!deviceToken) throw invalidFields({ device_token: ['The device token field is required.'] });
    const nul = nulFieldErrors({ device_token: deviceToken });
    if (Object.keys(nul).length) throw invalidFields(nul);
    const tenantIds = await this.store.pushRegistrations.deleteDevice(request.userId, deviceToken, request.platform ?? undefined);
    if (tenantIds.length === 0) return;
    await this.events.publish<PushUnregisteredPayload>(EVENT.pushUnregistered, {
      user_id: request.userId,
      device_token: deviceToken,
      platform: request.platform,
      tenant_ids: tenantIds,
    });
  }
}

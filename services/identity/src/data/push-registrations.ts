// Push messaging registrations: one per (user, tenant, device). Implements the
// domain's PushRegistrationRepository.
import type { Model } from 'mongoose';
import type { PushRegistration, PushRegistrationRepository } from '../domain/repositories.js';
import type { PushRegistrationDoc } from './schemas.js';

export class MongoPushRegistrationRepository implements PushRegistrationRepository {
  constructor(private readonly model: Model<PushRegistrationDoc>) {}

  async upsert(registration: PushRegistration, now: Date): Promise<void> {
    const { user_id, tenant_id, device_key, ...fields } = registration;
    await this.model
      .updateOne({ user_id, tenant_id, device_key }, { $set: { ...fields, updated_at: now }, $setOnInsert: { created_at: now } }, { upsert: true })
      .exec();
  }

  /** Deletes a device's registrations across tenants; returns the tenants it was registered in. */
  async deleteDevice(userId: number, deviceToken: string, platform?: string): Promise<number[]> {
    const filter = { user_id: userId, device_token: deviceToken, ...(platform && { platform }) };
    const found = await this.model.find(filter, { tenant_id: 1 }).lean<PushRegistrationDoc[]>().exec();
    await this.model.deleteMany(filter).exec();
    return [...new Set(found.map((doc) => doc.tenant_id))].sort((a, b) => a - b);
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}

// The commerce database: one mongoose schema per collection, with the
// indexes its query paths need. The documents are the domain's records
// (domain/repositories.ts) field for field; repositories return plain objects and
// nothing outside data/ sees mongoose.
//
// FerretDB (the local stack) has no transactions and does not isolate
// concurrent conditional updates of one document; every decision that must
// have exactly one winner (a checkout's payment, a grant per purchase) is an
// insert with a unique key, which it does enforce.
import { Schema, type Connection, type Model } from 'mongoose';
import { modelOn } from '@folio/mongo';
import type { DiscountRecord, GrantRecord, OfferRecord, OrderRecord, PriceRecord, SubscriptionRecord, WebSessionRecord } from '../domain/repositories.js';

// The records are the domain's (domain/repositories.ts), stored as they are: a
// document is a record with the same field names.
export type DiscountDoc = DiscountRecord;
export type PriceDoc = PriceRecord;
export type OfferDoc = OfferRecord;
export type GrantDoc = GrantRecord;
export type SubscriptionDoc = SubscriptionRecord;
export type WebSessionDoc = WebSessionRecord;
export type OrderDoc = OrderRecord;

/** Which e-mail a user id has in identity (immutable there), cached to match e-mail-keyed grants. */
export interface UserEmailDoc {
  _id: number;
  email: string;
  resolved_at: Date;
}

const discountSchema = new Schema<DiscountDoc>(
  { amount: { type: Number, required: true }, percentage: { type: Number, default: null }, ends_at: { type: Date, default: null } },
  { _id: false },
);
const priceSchema = new Schema<PriceDoc>(
  { currency: { type: String, required: true }, amount: { type: Number, required: true }, discount: { type: discountSchema, default: null } },
  { _id: false },
);

const offerSchema = new Schema<OfferDoc>(
  {
    _id: Number,
    tenant_id: { type: Number, required: true },
    type: { type: String, required: true },
    name: { type: String, required: true },
    free: { type: Boolean, required: true },
    sale: { type: String, required: true },
    licensing: { type: String, required: true },
    prices: { type: [priceSchema], default: [] },
    // No default: a seeded offer without it is on sale (isOnSale).
    on_sale: { type: Boolean },
    updated_at: { type: Date, required: true },
  },
  { collection: 'offers', versionKey: false },
);
offerSchema.index({ tenant_id: 1, free: 1 });

const grantSchema = new Schema<GrantDoc>(
  {
    _id: String,
    tenant_id: { type: Number, required: true },
    issue_id: { type: Number, required: true },
    user_id: { type: Number, default: null },
    email: { type: String, default: null },
    source: { type: String, required: true },
    expires_at: { type: Date, default: null },
    revoked: { type: Boolean, default: false },
    order_id: { type: String, default: null },
    created_at: { type: Date, required: true },
    erased_at: { type: Date, default: null },
  },
  { collection: 'grants', versionKey: false },
);
grantSchema.index({ user_id: 1, tenant_id: 1 });
grantSchema.index({ email: 1, tenant_id: 1 });

const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    _id: String,
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, default: null },
    email: { type: String, default: null },
    plan: { type: String, required: true },
    covers_all: { type: Boolean, required: true },
    issue_ids: { type: [Number], default: [] },
    active: { type: Boolean, required: true },
    ends_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { collection: 'subscriptions', versionKey: false },
);
subscriptionSchema.index({ user_id: 1, tenant_id: 1 });
subscriptionSchema.index({ email: 1, tenant_id: 1 });

const webSessionSchema = new Schema<WebSessionDoc>(
  {
    _id: String,
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, required: true },
    issue_id: { type: Number, required: true },
    app_tenant_id: { type: Number, default: null },
    return_scheme: { type: String, required: true },
    csrf_token: { type: String, required: true },
    cart: {
      items: { type: [{ _id: false, issue_id: Number, added_at: Date }], default: [] },
      checkout_id: { type: String, required: true },
    },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
  },
  { collection: 'web_sessions', versionKey: false },
);
webSessionSchema.index({ user_id: 1 });
webSessionSchema.index({ expires_at: 1 });

const orderSchema = new Schema<OrderDoc>(
  {
    _id: String,
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, default: null },
    items: {
      type: [{ _id: false, issue_id: Number, name: String, currency: String, list_amount: Number, amount: Number }],
      default: [],
    },
    currency: { type: String, required: true },
    total_minor: { type: Number, required: true },
    provider: { type: String, required: true },
    payment_id: { type: String, required: true },
    return_url: { type: String, required: true },
    created_at: { type: Date, required: true },
    erased_at: { type: Date, default: null },
  },
  { collection: 'orders', versionKey: false },
);
orderSchema.index({ user_id: 1 });
orderSchema.index({ tenant_id: 1, created_at: -1 });

const userEmailSchema = new Schema<UserEmailDoc>(
  { _id: Number, email: { type: String, required: true }, resolved_at: { type: Date, required: true } },
  { collection: 'user_emails', versionKey: false },
);
userEmailSchema.index({ email: 1 });

export interface CommerceModels {
  offers: Model<OfferDoc>;
  grants: Model<GrantDoc>;
  subscriptions: Model<SubscriptionDoc>;
  webSessions: Model<WebSessionDoc>;
  orders: Model<OrderDoc>;
  userEmails: Model<UserEmailDoc>;
}

export function commerceModels(connection: Connection): CommerceModels {
  return {
    offers: modelOn(connection, 'Offer', offerSchema),
    grants: modelOn(connection, 'Grant', grantSchema),
    subscriptions: modelOn(connection, 'Subscription', subscriptionSchema),
    webSessions: modelOn(connection, 'WebSession', webSessionSchema),
    orders: modelOn(connection, 'Order', orderSchema),
    userEmails: modelOn(connection, 'UserEmail', userEmailSchema),
  };
}

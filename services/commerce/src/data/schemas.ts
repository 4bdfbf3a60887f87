// The commerce database: one mongoose schema per collection, with the
// indexes its query paths need. Repositories return plain objects; nothing
// outside data/ sees mongoose.
//
// FerretDB (the local stack) has no transactions and does not isolate
// concurrent conditional updates of one document; every decision that must
// have exactly one winner (a checkout's payment, a grant per purchase) is an
// insert with a unique key, which it does enforce.
import { Schema, type Connection, type Model } from 'mongoose';
import { modelOn } from '@folio/mongo';

export type Sale = 'individual' | 'subscription_only';
export type Licensing = 'standard' | 'pay_per_use';
export type GrantSource = 'purchase' | 'gift' | 'admin' | 'retail_license' | 'external';
export const GRANT_SOURCES: readonly GrantSource[] = ['purchase', 'gift', 'admin', 'retail_license', 'external'];

export interface DiscountDoc {
  /** What the user pays while the promotion runs, major units. */
  amount: number;
  percentage: number | null;
  /** null: the promotion has no end. */
  ends_at: Date | null;
}

export interface PriceDoc {
  currency: string;
  /** Major units (9.99 USD). */
  amount: number;
  discount: DiscountDoc | null;
}

/** What commerce knows of an issue: how it is sold. `_id` is the issue id. */
export interface OfferDoc {
  _id: number;
  tenant_id: number;
  /** Content type (epub, pdf, audio, physical): kept for the checkout page and reports. */
  type: string;
  /** Name at seed time: the checkout page's fallback when catalog does not answer. */
  name: string;
  free: boolean;
  sale: Sale;
  licensing: Licensing;
  prices: PriceDoc[];
  updated_at: Date;
}

/**
 * A user's right to read one issue. Seeded grants name the user by e-mail
 * (the dataset's key; identity assigns the ids), grants from the checkout by
 * user id; access queries match either.
 */
export interface GrantDoc {
  /** `seed:<email>:<issue>:<source>` or `purchase:<checkout id>:<issue>`: re-recording is a no-op. */
  _id: string;
  tenant_id: number;
  issue_id: number;
  user_id: number | null;
  email: string | null;
  source: GrantSource;
  expires_at: Date | null;
  revoked: boolean;
  /** The order (checkout id) a purchase grant came from. */
  order_id: string | null;
  created_at: Date;
  /** Set when the user's account was deleted: the row stays only as part of a financial record. */
  erased_at?: Date | null;
}

export interface SubscriptionDoc {
  /** `seed:<email>:<tenant>:<plan>` for seeded plans. */
  _id: string;
  tenant_id: number;
  user_id: number | null;
  email: string | null;
  plan: string;
  /** The plan covers every issue of the tenant. */
  covers_all: boolean;
  /** Otherwise: the issues it covers. */
  issue_ids: number[];
  active: boolean;
  ends_at: Date | null;
  created_at: Date;
}

/** One cart per user and tenant (`<tenant>:<user>`). */
export interface CartDoc {
  _id: string;
  tenant_id: number;
  user_id: number;
  items: { issue_id: number; added_at: Date }[];
  /**
   * Identifies this content of the cart: a new one each time the cart is
   * filled. It is the idempotency key of its payment and order.
   */
  checkout_id: string;
  updated_at: Date;
}

/** The web session the purchase redirect opens on the store (cookie `folio_session`). */
export interface WebSessionDoc {
  /** SHA-256 of the cookie value: the database alone does not let anyone in. */
  _id: string;
  tenant_id: number;
  user_id: number;
  /** The issue the purchase redirect was for. */
  issue_id: number;
  app_tenant_id: number | null;
  /** Resolved at the purchase redirect; the deeplink after payment starts with it. */
  return_scheme: string;
  /** Synchronizer token of the pay form. */
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
}

export interface OrderItemDoc {
  issue_id: number;
  name: string;
  currency: string;
  /** List price, major units. */
  list_amount: number;
  /** Paid (discounted) price, major units. */
  amount: number;
}

/**
 * A paid checkout: a financial record. `_id` is the checkout id, so one
 * checkout can never become two orders. On account deletion it is
 * anonymized (user_id null), never deleted.
 */
export interface OrderDoc {
  _id: string;
  tenant_id: number;
  user_id: number | null;
  items: OrderItemDoc[];
  currency: string;
  /** Charged total in minor units (cents). */
  total_minor: number;
  provider: string;
  payment_id: string;
  /** The deeplink the browser was sent to. */
  return_url: string;
  created_at: Date;
  erased_at: Date | null;
}

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

const cartSchema = new Schema<CartDoc>(
  {
    _id: String,
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, required: true },
    items: { type: [{ _id: false, issue_id: Number, added_at: Date }], default: [] },
    checkout_id: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'carts', versionKey: false },
);
cartSchema.index({ user_id: 1 });

const webSessionSchema = new Schema<WebSessionDoc>(
  {
    _id: String,
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, required: true },
    issue_id: { type: Number, required: true },
    app_tenant_id: { type: Number, default: null },
    return_scheme: { type: String, required: true },
    csrf_token: { type: String, required: true },
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
  carts: Model<CartDoc>;
  webSessions: Model<WebSessionDoc>;
  orders: Model<OrderDoc>;
  userEmails: Model<UserEmailDoc>;
}

export function commerceModels(connection: Connection): CommerceModels {
  return {
    offers: modelOn(connection, 'Offer', offerSchema),
    grants: modelOn(connection, 'Grant', grantSchema),
    subscriptions: modelOn(connection, 'Subscription', subscriptionSchema),
    carts: modelOn(connection, 'Cart', cartSchema),
    webSessions: modelOn(connection, 'WebSession', webSessionSchema),
    orders: modelOn(connection, 'Order', orderSchema),
    userEmails: modelOn(connection, 'UserEmail', userEmailSchema),
  };
}

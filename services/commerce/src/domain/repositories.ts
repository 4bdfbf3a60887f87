// What commerce keeps, in its own terms: offers, access grants, subscription
// plans, web sessions (with their carts), orders and checkout locks, and the repositories
// the use cases read and write them through. data/ implements the
// repositories over the document store (data/index.ts opens them all, app.ts
// hands them to the use cases); the records keep the stored field names
// (`_id`, snake_case), so the repositories hand their lean documents over as
// they are.
import { createHash } from 'node:crypto';

export type Sale = 'individual' | 'subscription_only';
export type Licensing = 'standard' | 'pay_per_use';
export type GrantSource = 'purchase' | 'gift' | 'admin' | 'retail_license' | 'external';
export const GRANT_SOURCES: readonly GrantSource[] = ['purchase', 'gift', 'admin', 'retail_license', 'external'];

export interface DiscountRecord {
  /** What the user pays while the promotion runs, major units. */
  amount: number;
  percentage: number | null;
  /** null: the promotion has no end. */
  ends_at: Date | null;
}

export interface PriceRecord {
  currency: string;
  /** Major units (9.99 USD). */
  amount: number;
  discount: DiscountRecord | null;
}

/** What commerce knows of an issue: how it is sold. `_id` is the issue id. */
export interface OfferRecord {
  _id: number;
  tenant_id: number;
  /** Content type (epub, pdf, audio, physical): kept for the checkout page and reports. */
  type: string;
  /** Name at seed time: the checkout page's fallback when catalog does not answer. */
  name: string;
  free: boolean;
  sale: Sale;
  licensing: Licensing;
  prices: PriceRecord[];
  /**
   * Whether it can be bought now: false for a draft or a withdrawn issue.
   * Absent reads as true (the seeded offers are on sale). Access never looks
   * at it: grants and earlier purchases keep giving access.
   */
  on_sale?: boolean;
  updated_at: Date;
}

/** An offer with on_sale absent is on sale. */
export const isOnSale = (offer: Pick<OfferRecord, 'on_sale'>) => offer.on_sale !== false;

/** A free issue of a tenant, as the my-content listing needs it. */
export interface FreeIssue {
  tenant_id: number;
  issue_id: number;
}

/**
 * A user's right to read one issue. Seeded grants name the user by e-mail
 * (the dataset's key; identity assigns the ids), grants from the checkout by
 * user id; access queries match either.
 */
export interface GrantRecord {
  /**
   * `seed:<email>:<issue>:<source>`, `purchase:<checkout id>:<issue>` or
   * `admin:<email>:<issue>` (a publisher's grant): re-recording is a no-op.
   */
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

export interface SubscriptionRecord {
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

/**
 * The cart of a web session. It lives in the session: the purchase redirect
 * opens a session with the issue alone in its cart, one insert (a cart of its
 * own per user was a second write per redirect, an upsert, and most of the
 * store's work for it). A newer redirect opens a newer session, so each
 * browser window pays for what it was opened for.
 */
export interface CartRecord {
  items: { issue_id: number; added_at: Date }[];
  /**
   * Identifies this content of the cart: a new one each time the cart is
   * filled or emptied. It is the idempotency key of its payment and order.
   */
  checkout_id: string;
}

/** The web session the purchase redirect opens on the store (cookie `folio_session`). */
export interface WebSessionRecord {
  /** SHA-256 of the cookie value (hashSessionId): the database alone does not let anyone in. */
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
  cart: CartRecord;
  created_at: Date;
  expires_at: Date;
}

/** The id a web session is stored under: SHA-256 of the cookie value. */
export const hashSessionId = (sessionId: string) => createHash('sha256').update(sessionId, 'utf8').digest('hex');

export interface OrderItemRecord {
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
export interface OrderRecord {
  _id: string;
  tenant_id: number;
  user_id: number | null;
  items: OrderItemRecord[];
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

/** Records that belong to a user name them by id, by e-mail (seeded data), or both. */
export interface Owner {
  userId: number;
  /** The user's e-mail in identity, lower-cased; null when it could not be resolved. */
  email: string | null;
}

/** How each issue is sold. An issue of another tenant is as unknown as a missing one. */
export interface OfferRepository {
  findInTenant(tenantId: number, issueId: number): Promise<OfferRecord | null>;
  findManyInTenant(tenantId: number, issueIds: number[]): Promise<OfferRecord[]>;
  /** Offers among `issueIds` that belong to one of `tenantIds`. */
  findManyInTenants(tenantIds: number[], issueIds: number[]): Promise<OfferRecord[]>;
  /** The free issues of the given tenants. */
  freeIssuesIn(tenantIds: number[]): Promise<FreeIssue[]>;
  /**
   * Creates or replaces the offer of an issue of the offer's tenant; false
   * (nothing written) when the issue id has an offer in another tenant.
   */
  putInTenant(offer: OfferRecord): Promise<boolean>;
  /** Sets whether the issue's offer is on sale; false when the tenant has no offer for it. */
  setOnSale(tenantId: number, issueId: number, onSale: boolean, now: Date): Promise<boolean>;
  /** Drops what this process remembers of a tenant's offers (another replica changed them). */
  forgetTenant(tenantId?: number): void;
}

export interface GrantRepository {
  /** Records a grant once: true for the call that created it, false when its id already existed. */
  insertOnce(grant: GrantRecord): Promise<boolean>;
  /**
   * Creates the grant, or gives the existing one of that id the new expiry
   * (live again if it was revoked); `created_at` stays the first one's.
   * Returns the grant as stored.
   */
  assign(grant: GrantRecord): Promise<GrantRecord>;
  /**
   * Grants of the user in the tenants that give access at `now`: not revoked,
   * not erased, not expired. Optionally only for some issues.
   */
  liveFor(owner: Owner, tenantIds: number[], now: Date, issueIds?: number[]): Promise<GrantRecord[]>;
  /**
   * Account deletion. Purchase grants belong to an order (a financial
   * record): they are anonymized and revoked. Every other grant is deleted.
   */
  eraseOwner(owner: Owner, now: Date): Promise<{ deleted: number; anonymized: number }>;
}

export interface SubscriptionRepository {
  /** Plans of the user in the tenants that are active at `now`. */
  activeFor(owner: Owner, tenantIds: number[], now: Date): Promise<SubscriptionRecord[]>;
  /** Account deletion: every plan of the user; returns how many went. */
  deleteOwner(owner: Owner): Promise<number>;
}

export interface WebSessionRepository {
  create(session: WebSessionRecord): Promise<void>;
  /** The live session of a cookie value in this tenant's store, or null. */
  findLive(sessionId: string, tenantId: number, now: Date): Promise<WebSessionRecord | null>;
  /** Empties the session's cart (under a new checkout id) if it still holds the paid checkout. */
  emptyCartIfCheckout(session: WebSessionRecord, checkoutId: string): Promise<void>;
  /** Account deletion: every session of the user; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
  /** Deletes the sessions expired at `now`; returns how many went. */
  pruneExpired(now: Date): Promise<number>;
}

/** Paid checkouts, keyed by checkout id. */
export interface OrderRepository {
  /** True when this call recorded the order; false when the checkout already had one. */
  insertOnce(order: OrderRecord): Promise<boolean>;
  find(checkoutId: string): Promise<OrderRecord | null>;
  /** Account deletion: the order stays (bookkeeping), without the user; returns how many. */
  anonymizeUser(userId: number, now: Date): Promise<number>;
}

/** user id -> e-mail, as identity knows it (identity never changes an e-mail nor reuses an id). */
export interface UserEmailRepository {
  find(userId: number): Promise<string | null>;
  remember(userId: number, email: string, now: Date): Promise<void>;
  forget(userId: number): Promise<void>;
}

/**
 * One payer at a time per checkout: a lock is a row under the checkout id,
 * claimed by a unique insert (atomic on FerretDB and MongoDB alike).
 */
export interface CheckoutLockRepository {
  /** True for the one caller that claimed the checkout; false while another holds it. */
  claim(checkoutId: string, userId: number): Promise<boolean>;
  /** When the current holder claimed the checkout, or null when nobody holds it. */
  claimedAt(checkoutId: string): Promise<Date | null>;
  /** Removes the lock only if it is still the claim made at `claimedAt` (a presumed-dead holder's). */
  breakClaim(checkoutId: string, claimedAt: Date): Promise<void>;
  release(checkoutId: string): Promise<void>;
}

/** The commerce database's repositories, as the use cases see them. */
export interface CommerceRepositories {
  offers: OfferRepository;
  grants: GrantRepository;
  subscriptions: SubscriptionRepository;
  webSessions: WebSessionRepository;
  orders: OrderRepository;
  userEmails: UserEmailRepository;
  checkoutLocks: CheckoutLockRepository;
}

// The publisher API's offers (how an issue is sold) and grants (access a
// publisher assigns). Commerce owns both and their rules (ISO 4217 codes,
// one price per currency, amounts, discounts, dates in the future): shapes
// are checked here, the rules come back as commerce's field errors, named as
// this body names them (`prices.0.currency`). Whether an offer is on sale
// follows the issue: a draft can be priced before it is published, and
// publish / withdraw (issues.ts) switch it.
import { notFound } from '@folio/errors';
import { catalog, commerce } from '@folio/proto';
import { z } from 'zod';
import { route } from '../../http/route.js';
import { deliverableEmail, issueIdParams } from '../schemas.js';
import { audit, PUBLISHER_TAG } from './common.js';
import { publisherIssueOf } from './issues.js';

const SALE_MODES = {
  individual: commerce.SaleMode.SALE_MODE_INDIVIDUAL,
  subscription: commerce.SaleMode.SALE_MODE_SUBSCRIPTION,
  pay_per_use: commerce.SaleMode.SALE_MODE_PAY_PER_USE,
} as const;
type SaleModeName = keyof typeof SALE_MODES;
const SALE_MODE_NAMES = Object.keys(SALE_MODES) as SaleModeName[];

const saleModeName = (mode: commerce.SaleMode): SaleModeName => SALE_MODE_NAMES.find((name) => SALE_MODES[name] === mode) ?? 'individual';

const saleModeSchema = z.enum(SALE_MODE_NAMES as [SaleModeName, ...SaleModeName[]]).meta({
  description:
    '`individual`: bought one by one (and read with a subscription covering the store); `subscription`: read only with a subscription; `pay_per_use`: read through a pay-per-use licence, never bought',
});

const DiscountBody = z
  .object({
    amount: z.number().optional().meta({ description: 'What the buyer pays while the promotion runs (lower than the price)' }),
    percentage: z.number().optional().meta({ description: 'Off the price, 0-100 exclusive; commerce computes the amount, rounded to cents' }),
    ends_at: z.string().max(40).optional().meta({ description: 'ISO 8601 date-time in the future; absent: no end' }),
  })
  .strict()
  .meta({ id: 'OfferDiscountInput', description: 'Exactly one of `amount` or `percentage`' });

const PriceBody = z
  .object({
    currency: z.string().max(10).meta({ description: 'ISO 4217, upper case (USD, EUR)' }),
    amount: z.number().meta({ description: 'Major units, > 0, at most two decimals' }),
    discount: DiscountBody.nullable().optional(),
  })
  .strict()
  .meta({ id: 'OfferPriceInput' });

const PutOfferBody = z
  .object({
    free: z.boolean().meta({ description: 'Readable by everyone; prices are then not shown' }),
    sale_mode: saleModeSchema,
    prices: z.array(PriceBody).max(50).meta({ description: "One per currency; at least one unless free, one of them in the store's currency" }),
  })
  .strict()
  .meta({ id: 'PutOffer' });

const Offer = z
  .object({
    issue_id: z.number().int(),
    free: z.boolean(),
    sale_mode: saleModeSchema,
    prices: z.array(
      z
        .object({
          currency: z.string(),
          amount: z.number(),
          discount: z
            .object({
              amount: z.number().meta({ description: 'What the buyer pays while the promotion runs' }),
              percentage: z.number().nullable(),
              ends_at: z.string().nullable().meta({ description: 'ISO 8601 UTC; null: no end' }),
            })
            .nullable(),
        })
        .meta({ id: 'OfferPrice' }),
    ),
    on_sale: z.boolean().meta({ description: 'Can be bought now: the issue is published' }),
    updated_at: z.string().meta({ description: 'ISO 8601 UTC' }),
  })
  .meta({ id: 'Offer' });

const offerToWire = (offer: commerce.Offer | undefined): z.infer<typeof Offer> => {
  if (!offer) throw new Error('commerce answered without the offer');
  return {
    issue_id: offer.issueId,
    free: offer.free,
    sale_mode: saleModeName(offer.saleMode),
    prices: offer.prices.map((price) => ({
      currency: price.currency,
      amount: price.amount,
      discount: price.discount
        ? { amount: price.discount.amount ?? price.amount, percentage: price.discount.percentage ?? null, ends_at: price.discount.endsAt ?? null }
        : null,
    })),
    on_sale: offer.onSale,
    updated_at: offer.updatedAt,
  };
};

const CreateGrantBody = z
  .object({
    email: deliverableEmail.meta({ description: 'Who gets access: an account now, or the one made later with this e-mail' }),
    issue_id: z.number().int().min(1).max(2_147_483_647),
    expires_at: z.string().max(40).optional().meta({ description: 'ISO 8601 date-time in the future; absent: no expiry' }),
  })
  .strict()
  .meta({ id: 'CreateGrant' });

const Grant = z
  .object({
    id: z.string(),
    issue_id: z.number().int(),
    email: z.string().meta({ description: 'Lower-cased as stored' }),
    expires_at: z.string().nullable().meta({ description: 'ISO 8601 UTC; null: no expiry' }),
    created_at: z.string().meta({ description: 'ISO 8601 UTC; the first grant of this e-mail and issue' }),
  })
  .meta({ id: 'Grant' });

const publisher = { tag: PUBLISHER_TAG, auth: 'publisher', tenant: 'single' } as const;
const NOT_FOUND = 'No such issue in this store';
const NO_OFFER = 'This issue has no offer yet: PUT /api/v2/publisher/issues/{id}/offer sets one.';

export const publisherOfferRoutes = [
  route({
    ...publisher,
    method: 'put',
    path: '/api/v2/publisher/issues/{issue_id}/offer',
    summary: 'Set how the issue is sold: free or prices per currency, a discount, the sale mode',
    description:
      'Replaces the whole offer. It is on sale only while the issue is published, so a draft can be priced first. The store shows the new prices within the catalog visibility bound (docs/publishing.md).',
    params: issueIdParams,
    body: PutOfferBody,
    responses: { 200: { description: 'The offer as stored (discount amounts computed)', schema: Offer } },
    errors: { 404: NOT_FOUND },
    handler: async (ctx) => {
      const issue = await publisherIssueOf(ctx, ctx.params.issue_id);
      const { offer } = await ctx.services.commerce.putOffer({
        tenantId: ctx.tenant.id,
        issueId: issue.id,
        type: issue.type,
        name: issue.name,
        free: ctx.body.free,
        saleMode: SALE_MODES[ctx.body.sale_mode],
        prices: ctx.body.prices.map((price) => ({
          currency: price.currency,
          amount: price.amount,
          discount: price.discount ? { amount: price.discount.amount, percentage: price.discount.percentage, endsAt: price.discount.ends_at } : undefined,
        })),
        onSale: issue.state === catalog.IssueState.ISSUE_STATE_PUBLISHED,
      });
      const wire = offerToWire(offer);
      await audit(ctx, 'offer.put', `issue:${issue.id}`, ctx.body);
      return { status: 200, body: wire };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/issues/{issue_id}/offer',
    summary: 'How the issue is sold',
    params: issueIdParams,
    responses: { 200: { description: 'The offer', schema: Offer } },
    errors: { 404: `${NOT_FOUND}, or it has no offer yet` },
    handler: async (ctx) => {
      const issue = await publisherIssueOf(ctx, ctx.params.issue_id);
      const { offer } = await ctx.services.commerce.getOffer({ tenantId: ctx.tenant.id, issueId: issue.id });
      if (!offer) throw notFound(NO_OFFER);
      return { status: 200, body: offerToWire(offer) };
    },
  }),
  route({
    ...publisher,
    method: 'post',
    path: '/api/v2/publisher/grants',
    summary: 'Give an e-mail access to an issue (access reason `purchased`), until an expiry if given',
    description:
      'The reader with that e-mail reads it at once, or after signing up. Granting the same e-mail and issue again sets the new expiry (none when absent). A grant needs no offer and outlives a withdrawal.',
    body: CreateGrantBody,
    responses: { 201: { description: 'The grant', schema: Grant } },
    errors: { 404: NOT_FOUND },
    handler: async (ctx) => {
      const issue = await publisherIssueOf(ctx, ctx.body.issue_id);
      const grant = await ctx.services.commerce.createGrant({
        tenantId: ctx.tenant.id,
        issueId: issue.id,
        email: ctx.body.email,
        expiresAt: ctx.body.expires_at,
      });
      await audit(ctx, 'grant.create', `issue:${issue.id}`, { email: grant.email, expires_at: grant.expiresAt ?? null });
      return {
        status: 201,
        body: { id: grant.grantId, issue_id: grant.issueId, email: grant.email, expires_at: grant.expiresAt ?? null, created_at: grant.createdAt },
      };
    },
  }),
];

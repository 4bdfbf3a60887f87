// The payment provider behind the web checkout. The page asks the provider
// which inputs it needs, the provider validates them and charges.
//
// Only the local test provider exists: it moves no money, accepts the public
// test card 4242 4242 4242 4242, declines 4000 0000 0000 0002 and records
// each payment (id, amount, last four digits) in commerce's database. A
// hosted provider (Stripe, Adyen, ...) plugs in behind the same interface: it
// would declare its own fields (a token from its hosted fields instead of the
// card number, so no card data reaches us), and honour `idempotencyKey` so a
// retried checkout is never charged twice.
import { randomBytes } from 'node:crypto';
import type { Connection } from '@folio/mongo';
import { isDuplicateKeyError } from '@folio/mongo';
import type { Clock } from './ports.js';

/** Message keys the page translates (see web/messages.ts). */
export type PaymentFieldErrorKey =
  | 'cardholder_name_required'
  | 'card_number_invalid'
  | 'card_expiry_invalid'
  | 'card_expired'
  | 'card_cvc_invalid';
export type DeclineKey = 'card_declined' | 'test_card_only';

export interface PaymentField {
  /** Form field name, as posted. */
  name: string;
  /** Label key in the page's messages. */
  label: 'cardholder_name' | 'card_number' | 'card_expiry' | 'card_cvc';
  autocomplete: string;
  inputmode?: 'numeric' | 'text';
  placeholder?: string;
  maxlength: number;
  /** The value is shown again when the page is re-rendered (never for card data). */
  keep: boolean;
}

export interface ChargeRequest {
  /** The same key always yields the same successful charge (the checkout id). */
  idempotencyKey: string;
  amountMinor: number;
  currency: string;
  description: string;
  form: Record<string, string>;
  metadata: Record<string, string>;
}

export type ChargeResult = { status: 'succeeded'; paymentId: string } | { status: 'declined'; reason: DeclineKey };

export interface PaymentProvider {
  readonly name: string;
  /** No money moves: the page says so and shows the test cards. */
  readonly testMode: boolean;
  readonly fields: PaymentField[];
  /** Field name -> error key; empty when the form can be charged. */
  validate(form: Record<string, string>, now: Date): Record<string, PaymentFieldErrorKey>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

export const TEST_CARD_OK = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';

const digitsOnly = (value: string | undefined) => (value ?? '').replace(/[\s-]/g, '');

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** MM/YY or MM/YYYY -> the first instant after the card's last valid day, or null. */
export function expiryEnd(value: string | undefined): Date | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value ?? '');
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return new Date(Date.UTC(year, month, 1));
}

interface TestPaymentDoc {
  _id: string;
  payment_id: string;
  amount_minor: number;
  currency: string;
  card_last4: string;
  description: string;
  metadata: Record<string, string>;
  created_at: Date;
}

export class LocalTestPaymentProvider implements PaymentProvider {
  readonly name = 'local-test';
  readonly testMode = true;
  readonly fields: PaymentField[] = [
    { name: 'cardholder_name', label: 'cardholder_name', autocomplete: 'cc-name', inputmode: 'text', maxlength: 100, keep: true },
    { name: 'card_number', label: 'card_number', autocomplete: 'cc-number', inputmode: 'numeric', placeholder: '4242 4242 4242 4242', maxlength: 23, keep: false },
    { name: 'card_expiry', label: 'card_expiry', autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: 'MM/YY', maxlength: 7, keep: false },
    { name: 'card_cvc', label: 'card_cvc', autocomplete: 'cc-csc', inputmode: 'numeric', placeholder: '123', maxlength: 4, keep: false },
  ];

  constructor(
    private readonly connection: Connection,
    private readonly clock: Clock,
  ) {}

  private get payments() {
    return this.connection.collection<TestPaymentDoc>('test_provider_payments');
  }

  validate(form: Record<string, string>, now: Date): Record<string, PaymentFieldErrorKey> {
    const errors: Record<string, PaymentFieldErrorKey> = {};
    const name = (form.cardholder_name ?? '').trim();
    if (!name || name.length > 100) errors.cardholder_name = 'cardholder_name_required';
    if (!luhnValid(digitsOnly(form.card_number))) errors.card_number = 'card_number_invalid';
    const end = expiryEnd(form.card_expiry);
    if (!end) errors.card_expiry = 'card_expiry_invalid';
    else if (end.getTime() <= now.getTime()) errors.card_expiry = 'card_expired';
    if (!/^\d{3,4}$/.test((form.card_cvc ?? '').trim())) errors.card_cvc = 'card_cvc_invalid';
    return errors;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const number = digitsOnly(request.form.card_number);
    if (number === TEST_CARD_DECLINED) return { status: 'declined', reason: 'card_declined' };
    if (number !== TEST_CARD_OK) return { status: 'declined', reason: 'test_card_only' };
    const done = await this.payments.findOne({ _id: request.idempotencyKey });
    if (done) return { status: 'succeeded', paymentId: done.payment_id };
    const payment: TestPaymentDoc = {
      _id: request.idempotencyKey,
      payment_id: `pay_test_${randomBytes(12).toString('hex')}`,
      amount_minor: request.amountMinor,
      currency: request.currency,
      card_last4: number.slice(-4),
      description: request.description,
      metadata: request.metadata,
      created_at: this.clock.now(),
    };
    try {
      await this.payments.insertOne(payment);
      return { status: 'succeeded', paymentId: payment.payment_id };
    } catch (error) {
      // The same checkout charged concurrently: there is one payment, report it.
      if (!isDuplicateKeyError(error)) throw error;
      const existing = await this.payments.findOne({ _id: request.idempotencyKey });
      if (!existing) throw error;
      return { status: 'succeeded', paymentId: existing.payment_id };
    }
  }
}

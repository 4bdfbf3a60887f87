// The local test payment provider: a PaymentProvider (domain/payments.ts) that
// moves no money, accepts the public test card 4242 4242 4242 4242, declines
// 4000 0000 0000 0002 and records each payment (id, amount, last four digits)
// in commerce's database, keyed by the checkout id so a retried checkout is
// charged once. It lives in data/ because it is a storage adapter.
import { randomBytes } from 'node:crypto';
import type { Connection } from '@folio/mongo';
import { isDuplicateKeyError } from '@folio/mongo';
import {
  digitsOnly,
  expiryEnd,
  luhnValid,
  TEST_CARD_DECLINED,
  TEST_CARD_OK,
  type ChargeRequest,
  type ChargeResult,
  type PaymentField,
  type PaymentFieldErrorKey,
  type PaymentProvider,
} from '../domain/payments.js';
import type { Clock } from '../domain/ports.js';

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
    {
      name: 'card_number',
      label: 'card_number',
      autocomplete: 'cc-number',
      inputmode: 'numeric',
      placeholder: '4242 4242 4242 4242',
      maxlength: 23,
      keep: false,
    },
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

// The payment provider behind the web checkout. The page asks the provider
// which inputs it needs, the provider validates them and charges.
//
// Only the local test provider exists (data/local-test-payments.ts, since it
// records each payment in commerce's database): it moves no money, accepts the
// public test card 4242 4242 4242 4242, declines 4000 0000 0000 0002. A
// hosted provider (Stripe, Adyen, ...) plugs in behind the same interface: it
// would declare its own fields (a token from its hosted fields instead of the
// card number, so no card data reaches us), and honour `idempotencyKey` so a
// retried checkout is never charged twice.

/** Message keys the page translates (see web/messages.ts). */
export type PaymentFieldErrorKey = 'cardholder_name_required' | 'card_number_invalid' | 'card_expiry_invalid' | 'card_expired' | 'card_cvc_invalid';
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

export const digitsOnly = (value: string | undefined) => (value ?? '').replace(/[\s-]/g, '');

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

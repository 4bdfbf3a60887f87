// Amounts: stored and shown in major units (9.99), charged in minor units
// (999) so that totals never carry floating-point residue.

/** Digits after the decimal point of a currency (USD 2, JPY 0). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function toMinor(amount: number, currency: string): number {
  return Math.round(amount * 10 ** minorDigits(currency));
}

export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency);
}

/** A locale for the tenant's language and country (es + AR -> es-AR), valid or the plain language. */
export function localeOf(lang: string, countryCode: string | null): string {
  const base = (lang || 'en').toLowerCase().split(/[-_]/)[0] || 'en';
  const candidates = countryCode ? [`${base}-${countryCode.toUpperCase()}`, base] : [base];
  for (const candidate of candidates) {
    try {
      if (Intl.NumberFormat.supportedLocalesOf([candidate]).length) return candidate;
    } catch {
      // not a well-formed tag: try the next
    }
  }
  return 'en';
}

export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(minorDigits(currency))} ${currency}`;
  }
}

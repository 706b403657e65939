/**
 * A card number as a receipt may show it: at most the first 6 and the last 4 digits (PCI DSS
 * 3.4.1), whatever came in — the pinpad's first-8/last-4 mask, the host's `541333-3511`, or by
 * mistake a whole PAN. Digits in the middle never survive.
 */
export function maskPan(value: string): string {
  const allDigits = /^\d+$/.test(value);
  const lead = allDigits ? (value.length >= 13 ? value.slice(0, 6) : '') : (/^\d+/.exec(value)?.[0] ?? '').slice(0, 6);
  const trail = (/\d+$/.exec(value)?.[0] ?? '').slice(-4);
  return lead === '' ? `************${trail}` : `${lead}******${trail}`;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Masks PAN-shaped runs (13 to 19 digits passing Luhn) inside free text, such as a host message.
 * `known`: numbers the terminal made itself and prints on purpose (its 15-digit MerchantOrderId,
 * which passes Luhn one time in ten), left as they are.
 */
export function maskPansIn(text: string, known: readonly string[] = []): string {
  return text.replace(/\d{13,19}/g, (run) => (!known.includes(run) && luhn(run) ? maskPan(run) : run));
}

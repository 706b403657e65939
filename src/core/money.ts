import { OmniposError } from './errors/index.js';

/** An amount in cents (BRL). Always a safe non-negative integer. */
export type Cents = number & { readonly __brand?: 'cents' };

export function cents(value: number, where = 'amount'): Cents {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new OmniposError('INVALID_ARGUMENT', `${where}: must be a whole number of cents, 0 or more`, { where });
  }
  return value;
}

/** `123456` → `R$ 1.234,56`. */
export function formatBRL(amount: Cents): string {
  const reais = Math.floor(amount / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${reais},${String(amount % 100).padStart(2, '0')}`;
}

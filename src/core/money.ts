/** An amount in cents (BRL). Always a safe non-negative integer. */
export type Cents = number & { readonly __brand?: 'cents' };

/** `123456` → `R$ 1.234,56`. */
export function formatBRL(amount: Cents): string {
  const reais = Math.floor(amount / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${reais},${String(amount % 100).padStart(2, '0')}`;
}

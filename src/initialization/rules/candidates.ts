import { paymentTypeOf, type PaymentType, type TableSet } from '../table-set.js';
import { refuse, type Candidate, type CardRead, type Decision } from './types.js';

const CHIP = new Set(['emv', 'contactlessEmv']);
const CONTACTLESS = new Set(['contactlessEmv', 'contactlessMagstripe']);

/**
 * The products a card may be sold as:
 * - by BIN: the rows of the winning range (specific before generic, then the narrowest);
 * - by chip AID: only products the `Emv` entry of the card's AID lists (`ProductIds`); a chip card
 *   whose BIN is in no range is still served from its AID unless the entry sets
 *   `RequireBINToBeInCardRangeTable`;
 * - by input mode: contactless only for products with `AllowTransactionWithContactlessCard`;
 * - by the sale type the cashier asked for (credit, debit, voucher), when given.
 */
export function candidateProducts(
  set: TableSet,
  read: CardRead,
  want?: PaymentType,
): Decision<{ candidates: Candidate[] }> {
  const group = set.index.lookup(read.digits);
  const chip = CHIP.has(read.entry);
  const emvs = chip ? set.emvFor(read.aid ?? '') : [];
  if (chip && emvs.length === 0)
    return refuse('aid-not-in-table', `the card's application ${read.aid ?? '(none)'} is not in the Emv table`);
  const emvOf = (productId: number) => emvs.find((e) => e.ProductIds.includes(productId));
  let candidates: Candidate[] = [];
  if (group) {
    for (const bin of group.rows) {
      const product = set.product(bin.ProductId);
      if (!product) continue;
      const emv = chip ? emvOf(product.ProductId) : undefined;
      if (chip && !emv) continue;
      candidates.push({
        product,
        paymentType: paymentTypeOf(product),
        bin,
        issuer: set.issuer(bin.IssuerId),
        ...(emv ? { emv } : {}),
      });
    }
  } else if (chip) {
    if (emvs.some((e) => e.RequireBINToBeInCardRangeTable))
      return refuse('bin-not-in-range-table', `BIN ${read.digits} is in no range and the Emv entry requires it`);
    for (const emv of emvs)
      for (const id of emv.ProductIds) {
        const product = set.product(id);
        if (product) candidates.push({ product, paymentType: paymentTypeOf(product), emv });
      }
  } else return refuse('unknown-bin', `BIN ${read.digits} is in no range of the Bins table`);
  const seen = new Set<number>();
  candidates = candidates.filter((c) => !seen.has(c.product.ProductId) && seen.add(c.product.ProductId));
  if (candidates.length === 0)
    return refuse('aid-not-in-table', `no product of BIN ${read.digits} is listed for the card's application`);
  if (CONTACTLESS.has(read.entry)) {
    candidates = candidates.filter((c) => c.product.AllowTransactionWithContactlessCard);
    if (candidates.length === 0)
      return refuse('contactless-not-allowed', 'no product of this card accepts contactless: insert or swipe the card');
  }
  if (want) {
    candidates = candidates.filter((c) => c.paymentType === want);
    if (candidates.length === 0) return refuse('no-product-of-type', `the card has no ${want} product`);
  }
  return { ok: true, candidates };
}

/**
 * Whether the customer must choose: more than one product fits (e.g. credit and debit on one
 * card). The options are listed in table order, labelled with `ProductName`.
 */
export function productChoice(candidates: readonly Candidate[]): {
  mustChoose: boolean;
  options: { productId: number; label: string }[];
} {
  return {
    mustChoose: candidates.length > 1,
    options: candidates.map((c) => ({ productId: c.product.ProductId, label: c.product.ProductName })),
  };
}

import { card } from '../../drivers/pinpad/index.js';
import { OmniposError, withDeadline } from '../core/index.js';
import { keyedDeadlineMs } from './pinpad-card-kit.js';
import type { PinpadCardOptions } from './pinpad-card-options.js';
import type { ProductQuery, ProductSelection, SelectionFacts } from './pinpad-card-products.js';
import { PROMPT_TEXTS, type PromptRelay } from './pinpad-card-prompts.js';

/** The product a read is sold as: the tables' selection, a product without the rules (legacy), or none. */
export type Product =
  | Extract<ProductSelection, { kind: 'product' }>
  | { kind: 'legacy'; productId: number; brandId?: number; issuerId?: number }
  | undefined;

/**
 * The tables' answer for a read: asks the customer (MNU) when several products fit; throws a
 * refusal (INIT_CARD_REFUSED) when the tables refuse the card or the choice does not fit it.
 */
export async function chooseProduct(
  o: PinpadCardOptions,
  query: ProductQuery,
  facts: SelectionFacts,
  signal: AbortSignal,
  relay: PromptRelay,
): Promise<Product> {
  const select = o.selectProduct;
  if (!select) {
    const r = o.resolveProduct?.(query);
    return r ? { kind: 'legacy', ...r } : undefined;
  }
  let s = select(query, facts);
  if (s.kind === 'choose') {
    const options = s.options;
    relay.show('choose-product', PROMPT_TEXTS.chooseProduct);
    const timeoutS = o.timeoutS ?? 60;
    // a key for each option the customer scrolls past, and ENTER: SPE_TIMEOUT each
    const deadline = withDeadline(signal, keyedDeadlineMs(timeoutS, options.length + 1));
    const n = await relay.during('choose-product', () =>
      o.pinpad.run(
        card.MNU,
        {
          title: PROMPT_TEXTS.chooseProduct,
          options: options.map((x) => x.label.slice(0, 24)),
          timeoutS,
        },
        { signal: deadline },
      ),
    );
    s = select(query, { ...facts, productId: options[n - 1]!.productId });
  }
  if (s.kind === 'refused') throw new OmniposError('INIT_CARD_REFUSED', s.message, { reason: s.reason });
  if (s.kind === 'choose')
    throw new OmniposError('INIT_CARD_REFUSED', 'the product chosen on the pinpad does not fit the card', {
      reason: 'product-choice',
    });
  return s;
}

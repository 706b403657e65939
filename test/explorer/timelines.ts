import { drive, finish, verdict } from './drive.js';
import type { Chooser, Verdict } from './search.js';
import { World } from './world.js';

/** Host times a payment may start at (America/Sao_Paulo, UTC-3): midday, in the close's margin, seconds before it. */
const STARTS = {
  'at midday': '2026-11-20T15:00:00.000Z',
  '23:58, inside the close margin': '2026-11-21T02:58:00.000Z',
  '23:59:50, seconds before the close': '2026-11-21T02:59:50.000Z',
} as const;

function startAt(chooser: Chooser): string {
  const at = chooser.choose('the payment starts', Object.keys(STARTS) as (keyof typeof STARTS)[], 'start');
  return STARTS[at];
}

/** A card sale (credit, stripe): the sale's answer, then its confirmation or its undo race. */
export async function cardSale(chooser: Chooser): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser));
  try {
    const confirmation = w.choose('the sale confirms', ['auto', 'by the ECR'] as const);
    const { done } = await w.sales.start({
      amount: 1000,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: confirmation === 'auto' ? 'auto' : 'ecr',
    });
    await w.survive(done);
    await drive(w);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

export const OPERATIONS = { 'card sale': cardSale } as const;

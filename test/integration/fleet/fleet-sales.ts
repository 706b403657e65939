import type { Daemon } from '../../../src/main.js';
import { until } from './fleet-kit.js';

// The fleet test's sales and what the operator and the terminals show of them.

/** A message the operator received: its topic and its JSON body. */
interface Message {
  topic: string;
  body: Record<string, unknown>;
}

/** One sale on every terminal at once, each to its end (the sale never waits on the broker). */
export async function saleRound(daemons: readonly Daemon[], n: number): Promise<void> {
  await Promise.all(
    daemons.map(async (d, i) => {
      await until(`terminal ${i} idle`, () => !d.engine.busy);
      const { done } = await d.engine.start({
        amount: 10_000 + (i + 1) * 100 + n * 1000,
        method: 'credit',
        installments: 1,
        interest: 'ByMerchant',
        confirmation: 'auto',
      });
      await done;
    }),
  );
}

/** The payments one terminal published (`prefix`: its topics' prefix), every copy, in arrival order. */
export function paymentsOf<M extends Message>(received: readonly M[], prefix: string): M[] {
  return received.filter((m) => m.topic === `${prefix}/payments`);
}

/** A consumer's view: first copy of each id, in arrival order. */
export function deduped<M extends Message>(list: M[]): M[] {
  const seen = new Set<string>();
  return list.filter((m) => {
    const k = String(m.body.id);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The payments a terminal's journal holds in a final state, named as the fleet's payment messages name them. */
export function finalPayments(d: Daemon): { id: number; status: string }[] {
  return d.journal
    .inStates(['confirmed', 'declined', 'aborted', 'refused', 'failed', 'undone', 'needs-refund', 'dead-letter'])
    .map((e) => ({
      id: e.id,
      status: e.state === 'aborted' ? 'cancelled' : e.state === 'dead-letter' ? 'failed' : e.state,
    }));
}

import { sleep, type Terminal } from './terminal.js';

/** Polls a payment until it leaves `pending` (a slow pinpad takes seconds), at most `ms`. */
export async function settle(
  t: Terminal,
  p: string,
  ms: number,
  waiting: readonly string[] = ['pending'],
): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const s = await t.call('GET', p);
    if (!waiting.includes(s.body?.status) || Date.now() > until) return s.body;
    await sleep(30);
  }
}

/** Clean runs until nothing is pending and the outbox is empty, on every terminal. */
export async function settleAll(terminals: readonly Terminal[], rounds: number): Promise<boolean> {
  let done = true;
  for (const t of terminals) {
    let clean = false;
    for (let k = 0; k < rounds && !clean; k++) {
      const h = await t.call('GET', '/v1/health');
      const open =
        (await t.call('GET', '/v1/payments?status=pending')).body.payments.length +
        (await t.call('GET', '/v1/payments?status=approved')).body.payments.length;
      clean = h.body.outbox.pending === 0 && open === 0;
      if (!clean) await sleep(100);
    }
    done &&= clean;
  }
  return done;
}

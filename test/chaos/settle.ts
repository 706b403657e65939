import { nextDailyClose } from '../../src/engine/daily-close.js';
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

/**
 * Clean runs until nothing is pending and the outbox is empty, on every terminal. A card-not-present
 * pre-authorization the host holds (`authorized`, read as `approved`) is not pending: it waits for its
 * capture or void, which the run may never ask.
 */
export async function settleAll(terminals: readonly Terminal[], rounds: number): Promise<boolean> {
  let done = true;
  for (const t of terminals) {
    let clean = false;
    for (let k = 0; k < rounds && !clean; k++) {
      const h = await t.call('GET', '/v1/health');
      const approved = (await t.call('GET', '/v1/payments?status=approved')).body.payments as { state?: string }[];
      const open =
        (await t.call('GET', '/v1/payments?status=pending')).body.payments.length +
        approved.filter((p) => p.state !== 'authorized').length;
      clean = h.body.outbox.pending === 0 && open === 0;
      if (!clean) await sleep(100);
    }
    done &&= clean;
  }
  return done;
}

/**
 * The run's end, faults off: every daemon restarted clean and settled. A sale the host never recorded
 * is never "nothing charged" before the close of its day (issue 17): its undo stays pending. Then the
 * host's day ends (its clock moves past the close; the terminal's business clock follows the host's
 * Date header), and the outbox settles those with a final query. Returns whether the day was closed.
 */
export async function settleThroughClose(
  terminals: readonly Terminal[],
  host: {
    restart(t: Terminal): Promise<void>;
    hostNow(): Promise<Date>;
    moveHost(body: { now: string } | { advanceMs: number }): Promise<unknown>;
  },
): Promise<boolean> {
  for (const t of terminals) {
    await t.kill();
    await host.restart(t);
  }
  await settleAll(terminals, 600);
  if (await settleAll(terminals, 1)) return false;
  await host.moveHost({ now: new Date(nextDailyClose(await host.hostNow()).getTime() + 60_000).toISOString() });
  // The terminal's clock follows the host's only when it hears from it: a restart (its probe and first
  // requests) brings it past the close too; time then goes on at the host, ten minutes per round (the
  // outbox backs off up to 5 min between tries).
  for (let round = 0; round < 6; round++) {
    for (const t of terminals) {
      await t.kill();
      await host.restart(t);
    }
    if (await settleAll(terminals, 150)) break;
    await host.moveHost({ advanceMs: 600_000 });
  }
  return true;
}

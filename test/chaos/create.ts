import { count } from './random.js';
import { sleep, type Terminal } from './terminal.js';

/** What the run counts of its creates: the answers' tally, and the retries a cash register made. */
export interface CreateFigures {
  /** Every final answer to a create, `status code` (`202`, `409 BUSY`, `503 CLOCK_BEHIND`…). */
  creates: Record<string, number>;
  /** Creates refused 503 `CLOCK_BEHIND` and asked again with the same key: how many sales, how many tries. */
  clockBehind: { sales: number; retries: number; gaveUp: number };
}

export const newCreateFigures = (): CreateFigures => ({
  creates: {},
  clockBehind: { sales: 0, retries: 0, gaveUp: 0 },
});

const code = (r: { body?: any }): string => String(r.body?.error?.code ?? r.body?.code ?? '');

/**
 * `POST /v1/payments` as a cash register sends it: with an `Idempotency-Key` of its own for the sale,
 * asked again with the same key while the terminal is busy finishing the previous sale (409 `BUSY`) or
 * its clock is behind the last order id it issued (503 `CLOCK_BEHIND`: nothing was journaled; "retry
 * once health is ok", docs/integration.md), each until its deadline: however long a loaded machine
 * takes (a fixed count of tries gave up at load 30), since a wait that ends early only skips the sale.
 */
export async function createPayment(
  t: Terminal,
  body: Record<string, unknown>,
  key: string,
  o: { busyMs: number; clockMs: number; figures: CreateFigures },
): Promise<{ status: number; body: any }> {
  const headers = { 'idempotency-key': key };
  let created = await t.call('POST', '/v1/payments', body, headers);
  const busyUntil = Date.now() + o.busyMs;
  const clockUntil = Date.now() + o.clockMs;
  let behind = false;
  for (;;) {
    const refusal = `${created.status} ${code(created)}`;
    if (refusal === '409 BUSY' && Date.now() < busyUntil) await sleep(200);
    else if (refusal === '503 CLOCK_BEHIND' && Date.now() < clockUntil) {
      if (!behind) o.figures.clockBehind.sales++;
      behind = true;
      o.figures.clockBehind.retries++;
      // The terminal's clock catches up once it hears the host's (its next request's Date header).
      await sleep(1000);
    } else break;
    created = await t.call('POST', '/v1/payments', body, headers);
  }
  if (behind && created.status === 503) o.figures.clockBehind.gaveUp++;
  count(o.figures.creates, `${created.status}${created.status >= 400 ? ` ${code(created)}` : ''}`);
  return created;
}

// The year run's sales (issue 35): one sale of a business day (card, voided by a supervisor or not; Pix;
// wallet QR), each awaited on the terminal's event stream, and the end-of-day settle.
import { settleAll } from '../chaos/settle.js';
import { sleep, type Terminal } from '../chaos/terminal.js';
import { walletPays } from '../helpers/wallet-pay.js';
import { lap } from './laps.js';
import { free } from './upkeep.js';
import type { PaymentWatch } from './watch.js';

export type SaleKind = 'card' | 'pix' | 'qr';

/** One sale of the day: a card sale (voided by a supervisor when `voidIt`), a Pix sale paid, a wallet QR sale paid. */
export async function oneSale(
  t: Terminal,
  w: PaymentWatch,
  control: (p: string, method: 'GET' | 'POST') => Promise<Record<string, unknown>>,
  walletUrl: string,
  kind: SaleKind,
  amount: number,
  voidIt: boolean,
): Promise<void> {
  if (kind === 'pix') {
    const pix = await lap(
      'pix create',
      started(() =>
        t.call('POST', '/v1/payments', {
          amount,
          method: 'pix',
          payer: { name: 'Maria da Silva', document: '529.982.247-25' },
        }),
      ),
    );
    if (pix.status !== 202) return;
    await lap('pix pay', control(`/sandbox/pix/${String(pix.body.paymentId)}/pay`, 'POST'));
    await lap('pix settled', w.settled(Number(pix.body.id), ['pending', 'approved'], 20_000));
    return;
  }
  if (kind === 'qr') {
    const qr = await lap(
      'qr create',
      started(() => t.call('POST', '/v1/payments', { amount, method: 'wallet-qr', qrModality: 'credit' })),
    );
    if (qr.status !== 202) return;
    const paid = await lap('qr wallet pays', walletPays(walletUrl, String(qr.body.qrCode)));
    if (process.env.YEAR_DEBUG) console.error('qr', paid.code, paid.err.slice(0, 300));
    await lap('qr settled', w.settled(Number(qr.body.id), ['pending', 'approved'], 20_000));
    return;
  }
  const debit = amount % 3 === 0;
  const card = debit ? { name: 'visa debit', via: 'chip' } : { name: 'mastercard credit', via: 'chip' };
  await lap('card customer', t.customer({ cmd: 'card', choice: { ...card, pin: 'right' } }));
  const created = await lap(
    'card create',
    started(() => t.call('POST', '/v1/payments', { amount, method: debit ? 'debit' : 'credit' })),
  );
  if (process.env.YEAR_DEBUG) console.error('card', created.status, JSON.stringify(created.body).slice(0, 200));
  if (created.status !== 202) return;
  const s = await lap('card settled', w.settled(Number(created.body.id), ['pending', 'approved'], 20_000));
  // The sale's status moves before its journal's state (it is voidable once confirmed) and before it lets
  // the terminal go (its receipt step): the void waits for that.
  if (voidIt && s === 'confirmed' && (await lap('void free', free(t, 10_000)))) {
    const v = await lap(
      'void create',
      started(() =>
        t.call('POST', `/v1/payments/${String(created.body.id)}/void`, {}, { 'x-supervisor-token': t.supervisor }),
      ),
    );
    if (process.env.YEAR_DEBUG) console.error('void', v.status, JSON.stringify(v.body).slice(0, 300));
    if (v.status === 202 || v.status === 200)
      await lap('void settled', w.voidSettled(Number(v.body.id), ['pending'], 20_000));
  }
}

/**
 * A payment or void started, asked again while the terminal answers that it cannot start one yet: 409
 * BUSY while the last payment still holds it (a sale's status moves before its receipt step lets the
 * terminal go), 503 CLOCK_BEHIND after a kill (the terminal learns the host's time again from its Date
 * header, to the second: its clock may be up to 1 s behind the last order id). The terminal's own
 * answer is the wait, with no health poll before every sale.
 */
async function started(start: () => Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  const end = Date.now() + 10_000;
  for (;;) {
    const r = await start();
    const code = r.body?.error?.code;
    const notYet = (r.status === 409 && code === 'BUSY') || (r.status === 503 && code === 'CLOCK_BEHIND');
    if (!notYet || Date.now() > end) return r;
    await sleep(10);
  }
}

/**
 * settleAll, a request that timed out tried again: at the end of a day of 300 sales on a loaded machine
 * (nice 10, load 20) the listing of the day's payments took longer than the terminal's 5 s limit.
 */
export async function settledAll(t: Terminal, rounds: number): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await settleAll([t], rounds);
    } catch (e) {
      if (attempt >= 5) throw e;
      await sleep(1000);
    }
  }
}

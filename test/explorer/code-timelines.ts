import { payableCodes } from './codes.js';
import { drive, finish, verdict } from './drive.js';
import type { Chooser, Verdict } from './search.js';
import { startAt, until } from './start.js';
import { SETTINGS, SUPERVISOR, World } from './world.js';

/** After the terminal let go of a code: a payer may still pay it while its host holds it payable. */
function payLate(w: World): void {
  if (
    payableCodes(w).length > 0 &&
    w.choose('after the terminal let go of the code', ['a payer pays it', 'nobody pays it'] as const) ===
      'a payer pays it'
  )
    for (const c of payableCodes(w)) c.pay();
}

/**
 * A wallet QR sale: the code shows until a wallet pays it, the cashier cancels it or it expires on the
 * terminal; whatever the terminal did, a wallet may still pay the code afterwards while the host holds
 * it payable. `ecommerce`: the host made the code (ecom 2460-2600; its validity there is unpublished,
 * qr 355); `terminal`: the terminal made it (`qr.provider: terminal`), payable at the wallet until its
 * 81.01 plus the validity, and paid as a terminal sale the terminal finds by its order id, confirms,
 * or undoes when it came late.
 */
export async function qrSale(chooser: Chooser, provider: 'ecommerce' | 'terminal'): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser), { qrProvider: provider });
  try {
    const confirmation = w.choose('the sale confirms', ['auto', 'by the ECR'] as const);
    const { entry, done } = await w.qr.start({
      amount: 1000,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: confirmation === 'auto' ? 'auto' : 'ecr',
    });
    await until(() => w.journal.get(entry.id)?.state === 'showing');
    const what = w.choose('while the code shows', [
      'a wallet pays it',
      'the cashier cancels',
      'the code expires on the terminal',
    ] as const);
    w.say(what);
    if (what === 'a wallet pays it') {
      for (const c of payableCodes(w)) c.pay();
      // A payment the query host does not show yet is not seen while the code shows: the code expires.
      if (w.host.salesByOrder(entry.merchantOrderId, w.now()).length === 0) w.clock.advance(SETTINGS.qrValidityMs);
    } else if (what === 'the cashier cancels') await w.qr.cancel(entry.id, 'ecr');
    else w.clock.advance(SETTINGS.qrValidityMs);
    await w.survive(done);
    await drive(w);
    payLate(w);
    await drive(w);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

/**
 * The Pix charge itself (ecom 1779-1923): its create's answer (a charge with its code, or none the
 * terminal can show), then while the code shows the payer pays, the cashier cancels or the code
 * expires on the terminal; a payer may pay a charge still unpaid at the provider afterwards (the
 * provider's code lasts two hours, ecom 1806; the terminal's shorter), which the terminal's cancel
 * must find and refund.
 */
export async function pixCharge(chooser: Chooser): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser), { pixPaidByChoice: true });
  try {
    const confirmation = w.choose('the sale confirms', ['auto', 'by the ECR'] as const);
    const { entry, done } = await w.pix.start({
      amount: 1000,
      payer: { name: 'Comprador Teste', document: '12345678909' },
      confirmation: confirmation === 'auto' ? 'auto' : 'ecr',
    });
    await until(() => w.dead || w.journal.get(entry.id)?.state !== 'creating');
    if (w.journal.get(entry.id)?.state === 'showing') {
      const what = w.choose('while the code shows', [
        'the payer pays it',
        'the cashier cancels',
        'the code expires on the terminal',
      ] as const);
      w.say(what);
      if (what === 'the payer pays it') for (const c of payableCodes(w)) c.pay();
      else if (what === 'the cashier cancels') await w.pix.cancel(entry.id, 'ecr');
      else w.clock.advance(SETTINGS.pixValidityMs);
    }
    await w.survive(done);
    await drive(w);
    payLate(w);
    await drive(w);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

/**
 * A card-not-present sale (a phone order typed on the pinpad; `src/engine/cnp/`, journal kind `cnp`),
 * captured at once, at the engine level: its answer decided by the rulebook's `sale` table, and what
 * that undoes settled by the outbox's undo race (`cnp.undo`) on the e-commerce card host (cnp-host.ts).
 */
export async function cnpSale(chooser: Chooser): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser));
  try {
    const { done } = await w.cnp.start(
      { amount: 1000, installments: 1, capture: true, method: 'credit' },
      // A test card (tables/test-cards.json's kind), held in memory for the one request.
      { number: '4000000000000010', holder: 'TESTE', expiry: '12/2030', securityCode: '123', brand: 'Visa' },
    );
    await w.survive(done);
    await drive(w);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

/**
 * The void of a wallet QR sale the terminal made (`qr.provider: terminal`): a cancellation code the
 * customer's wallet applies (qr:227, 82.03 `02`) while it shows, or nobody does; the host lists the
 * void under the sale, and its query may show it late, after the terminal stopped showing the code
 * (even after the close). The terminal must never say nothing was given back while the host holds the
 * void, nor let the supervisor void again what the wallet may still give back.
 */
export async function walletVoid(chooser: Chooser): Promise<Verdict> {
  const w = new World(chooser, startAt(chooser), { qrProvider: 'terminal' });
  try {
    for (const [label, option] of [
      ['the wallet', 'at once'],
      ['confirm ', 'answered'],
      ['next', 'run'],
    ] as const)
      w.pinned.set(label, option);
    const sale = await w.qr.start({
      amount: 1000,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    await until(() => w.journal.get(sale.entry.id)?.state === 'showing');
    for (const c of payableCodes(w)) c.pay();
    await w.survive(sale.done);
    await drive(w);
    w.pinned.clear();
    if (w.journal.get(sale.entry.id)?.state !== 'confirmed') return verdict(w);
    const { entry, done } = await w.voids.start(sale.entry.id, { supervisor: { token: SUPERVISOR } });
    await until(() => w.journal.get(entry.id)?.state !== 'started');
    const what = w.choose('while the cancellation code shows', ['the wallet applies it', 'nobody applies it'] as const);
    if (what === 'the wallet applies it') {
      const shown = w.choose('the applied cancellation shows at the query host', [
        'at once',
        'late (up to the lag after the close)',
      ] as const);
      const now = w.now();
      w.host.voids.push({
        paymentId: String(w.journal.get(sale.entry.id)?.data.paymentId),
        merchantVoidId: entry.merchantOrderId,
        voidId: w.host.id('wallet-void'),
        amount: 1000,
        cancellation: 1,
        visibleAt: shown === 'at once' ? now : w.host.latestVisible(now),
        takenAt: now,
      });
      w.say(`the wallet applies the cancellation code ${entry.merchantOrderId} (shown ${shown})`);
      if (shown === 'at once') await until(() => w.dead || w.journal.get(entry.id)?.state !== 'showing-code');
    }
    // The terminal sees an application the query host shows now; otherwise its code ends.
    if (w.journal.get(entry.id)?.state === 'showing-code') w.clock.advance(SETTINGS.qrValidityMs + 60_000);
    await w.survive(done);
    await drive(w);
    finish(w);
    return verdict(w);
  } finally {
    w.dispose();
  }
}

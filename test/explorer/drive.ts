import { dayLine } from '../../src/operations/day/index.js';
import type { JournalEntry } from '../../src/store/index.js';
import { closeAfter } from './closes.js';
import { dayMiscounts } from './day.js';
import { payableCodes } from './codes.js';
import type { Verdict } from './search.js';
import { SETTINGS, type World } from './world.js';

/** A timeline ends after this many steps at most (each step: one outbox pass, one clock move or one event). */
export const MAX_STEPS = 60;
/** Passes and clock moves in one step at most (a day of retries is a few hundred). */
const RUN_LIMIT = 2000;
/** How long a timeline runs on at most: two days cover the close of its day, the lag and the next close. */
const HORIZON_MS = 2 * 86_400_000;

const FINAL = new Set([
  'confirmed',
  'undone',
  'declined',
  'aborted',
  'failed',
  'needs-refund',
  'dead-letter',
  'expired',
  'cancelled',
  'refunded',
  'voided',
  'denied',
  // A card-not-present sale captured at once (src/engine/cnp/types.ts CNP_FINAL).
  'captured',
]);

/** What a sale (card or wallet QR) ends as when the terminal says nothing was charged. */
const NOT_CHARGED = new Set(['undone', 'declined', 'aborted', 'refused', 'failed', 'cancelled', 'expired']);

/** What a void ends as when it gave nothing back. */
const NOTHING_GIVEN = new Set(['undone', 'declined', 'refused', 'aborted', 'failed', 'expired']);

/** Nothing left to happen: every row final, no open task, nothing the host holds unshown. */
function settled(w: World): boolean {
  const now = w.now();
  return (
    w.entries().every((e) => FINAL.has(e.state)) && w.outbox.open().length === 0 && w.host.hidden(now).length === 0
  );
}

/** Money went back twice already: nothing later undoes it, the timeline is told as it stands. */
function twoRefunds(w: World): boolean {
  return w.host.pix.some((p) => p.refunds.length > 1) || w.host.sales.some((s) => w.host.refundsOf(s.paymentId) > 1);
}

/** The next instant something is due: a task, the close, a late request showing at the query host. */
function nextInstant(w: World): number | undefined {
  const now = w.now();
  const times = [
    ...w.outbox.open().map((t) => Date.parse(t.nextTryAt)),
    ...w.host.hidden(now).map((x) => x.visibleAt),
  ].filter((t) => t > now);
  if (times.length === 0) return undefined;
  return Math.min(...times, closeAfter(now));
}

function moveTo(w: World, at: number): void {
  w.clock.set(new Date(at).toISOString());
  for (const line of w.host.advance(at)) w.say(line);
}

/** Outbox passes and clock moves until the state changes (a retry that changes nothing is one step). False: nothing is left to run. */
async function run(w: World, horizon: number): Promise<boolean> {
  const before = w.fingerprint();
  for (let i = 0; i < RUN_LIMIT; i++) {
    if (w.outbox.due(w.clock.now()).length > 0) await w.survive(w.forwarder.runOnce());
    else {
      const at = nextInstant(w);
      if (at === undefined) return i > 0;
      moveTo(w, at);
    }
    if (w.dead || w.fingerprint() !== before || w.now() >= horizon) return true;
  }
  return true;
}

/**
 * Plays the timeline from where the operation left it: at each step the explorer may let things
 * run (an outbox pass if one is due, else the clock to the next due instant), or make the cash
 * register decide, SIGKILL the terminal, make the daily close fall now, or make the query host show
 * what it took now.
 */
export async function drive(w: World): Promise<void> {
  const horizon = w.now() + HORIZON_MS;
  for (let step = 0; step < MAX_STEPS && !settled(w) && !twoRefunds(w) && w.now() < horizon; step++) {
    const awaiting = w.entries().find((e) => e.state === 'awaiting-decision');
    const options: string[] = awaiting ? ['the ECR confirms', 'the ECR undoes'] : ['run'];
    // Where the merchant's close is explored, it falls at the next step by default: later is a deviation.
    if (w.dayCloses && w.closedDays.length === 0) options.unshift('the merchant closes the day now');
    options.push('SIGKILL and restart');
    // The close falls between two steps only near it: a jump of hours would be a terminal stopped for hours.
    if (closeAfter(w.now()) - w.now() <= SETTINGS.closeMarginMs) options.push('the daily close falls now');
    if (w.host.hidden(w.now()).length > 0) options.push('the query host shows it now');
    if (payableCodes(w).length > 0) options.push('a payer pays the code now');
    const ev = w.choose('next', options);
    switch (ev) {
      case 'the ECR confirms':
      case 'the ECR undoes':
        w.say(ev);
        if (awaiting) {
          // Each kind's own engine decides (a card sale, a wallet QR sale, a Pix).
          const owner = awaiting.kind === 'pix' ? w.pix : awaiting.kind === 'qr' ? w.qr : w.sales;
          await w.survive(owner.decide(awaiting.id, ev === 'the ECR confirms' ? 'confirm' : 'undo'));
        }
        break;
      case 'SIGKILL and restart':
        w.say('SIGKILL between two steps');
        w.restart();
        break;
      case 'the daily close falls now':
        moveTo(w, closeAfter(w.now()));
        w.say('the clock reaches the daily close');
        break;
      case 'the merchant closes the day now':
        await w.closeDay();
        break;
      case 'a payer pays the code now':
        for (const c of payableCodes(w)) c.pay();
        break;
      case 'the query host shows it now':
        for (const x of w.host.hidden(w.now())) x.visibleAt = w.now();
        w.say('the query host shows what it took');
        break;
      default:
        if (!(await run(w, horizon))) return;
    }
  }
}

/** After the timeline: the clock past every close and lag, so the host has confirmed and shown all it took. */
export function finish(w: World): void {
  const last = Math.max(w.now(), ...w.host.sales.map((s) => s.visibleAt), ...w.host.voids.map((v) => v.visibleAt));
  moveTo(w, closeAfter(last) + SETTINGS.lagMs);
}

/** What a Pix ends as when the terminal says nothing was charged, or that it was given back. */
const PIX_NOT_CHARGED = new Set(['failed', 'cancelled', 'refunded']);

/**
 * The money invariants on a Pix charge (ecom 1779-1790): one the terminal reports not charged or
 * refunded is not paid at the provider with no refund asked; one the cash register was told
 * confirmed is paid (2) or refunded at its own request (11), or has its alarm.
 */
function pixMisreported(w: World): Verdict['broken'] {
  const broken: Verdict['broken'] = [];
  const alarmed = (id: number): boolean => w.happened.alarms.some((a) => a.id === id);
  for (const e of w.entries()) {
    if (e.kind !== 'pix') continue;
    const charges = w.host.pix.filter((p) => p.merchantOrderId === e.merchantOrderId);
    const kept = charges.find((p) => p.status === 2 && p.refunds.length === 0);
    if (PIX_NOT_CHARGED.has(e.state) && kept)
      broken.push({
        invariant: 'a charge the terminal reports undone or not charged',
        detail: `Pix ${e.merchantOrderId} ends ${e.state}, the provider holds it paid (Status 2) with no refund asked`,
      });
    const paid = charges.some((p) => p.status === 2 || p.status === 11);
    if (w.happened.toldConfirmed.has(e.id) && !paid && !alarmed(e.id))
      broken.push({
        invariant: 'a sale the ECR was told confirmed is cancelled at the host without an alarm',
        detail: `Pix ${e.merchantOrderId} ends ${e.state}; the provider shows ${charges.map((p) => `Status ${p.status}`).join(', ') || 'nothing'}`,
      });
  }
  return broken;
}

/**
 * Whether the day's report, made at the close, showed row `e` awaiting the host's close (its line in
 * the state it held then): a wallet QR code that ended unpaid, watched for a late payment past the
 * close by the visibility rule. The report (and health) is the word before the close for that wait,
 * which is the watch doing its job, not a task stuck (no OUTBOX_STUCK).
 */
function awaitingAtClose(w: World, e: JournalEntry, close: number): boolean {
  const then = w.journal
    .transitions(e.id)
    .filter((t) => Date.parse(t.at) <= close)
    .at(-1);
  return then !== undefined && dayLine({ ...e, state: then.to }).awaitingHostClose === true;
}

/** The invariants of issue 29, read on the journal, the alarms and the host model. */
export function verdict(w: World): Verdict {
  const broken: Verdict['broken'] = [];
  const alarmed = (id: number): boolean => w.happened.alarms.some((a) => a.id === id);
  for (const e of w.entries()) {
    const hostSales = w.host.sales.filter((s) => s.merchantOrderId === e.merchantOrderId && s.terminal === 'ours');
    const charged = hostSales.some((s) => w.host.charged(s));
    if ((e.kind === 'sale' || e.kind === 'qr' || e.kind === 'cnp') && NOT_CHARGED.has(e.state) && charged)
      broken.push({
        invariant: 'a charge the terminal reports undone or not charged',
        detail: `${e.kind === 'qr' ? 'QR sale' : e.kind === 'cnp' ? 'card-not-present sale' : 'sale'} ${e.merchantOrderId} ends ${e.state}, the host holds it charged`,
      });
    if (e.kind === 'sale' && e.state === 'dead-letter' && hostSales.length > 0 && !charged && dayLine(e).charged > 0)
      broken.push({
        invariant: 'a sale the terminal counts charged that the host shows holding nothing',
        detail: `sale ${e.merchantOrderId} ends dead-letter counted charged; the host shows ${hostSales.map((s) => `Status ${s.status}/${s.confirmation}`).join(', ')}`,
      });
    const voided = hostSales.some((s) => w.host.refundsOf(s.paymentId) > 0);
    const isSale = e.kind === 'sale' || e.kind === 'qr';
    if (isSale && w.happened.toldConfirmed.has(e.id) && !charged && !voided && !alarmed(e.id))
      broken.push({
        invariant: 'a sale the ECR was told confirmed is cancelled at the host without an alarm',
        detail: `sale ${e.merchantOrderId} ends ${e.state}; the host shows ${hostSales.map((s) => `Status ${s.status}/${s.confirmation}`).join(', ') || 'nothing'}`,
      });
    // A timeline cut short at a second refund is not asked to end.
    if (!FINAL.has(e.state) && !twoRefunds(w))
      broken.push({
        invariant: 'an operation never ends',
        detail: `${e.kind} ${e.merchantOrderId} is still ${e.state}`,
      });
    else if ((e.state === 'needs-refund' || e.state === 'dead-letter') && !alarmed(e.id))
      broken.push({
        invariant: 'needs-refund or a dead letter without its alarm',
        detail: `${e.kind} ${e.merchantOrderId} ends ${e.state} with no alarm`,
      });
    const close = closeAfter(Date.parse(e.createdAt));
    const finalAt = Date.parse(e.updatedAt);
    const told = w.happened.alarms.some((a) => a.id === e.id && a.at <= close) || awaitingAtClose(w, e, close);
    if (FINAL.has(e.state) && finalAt > close && !told)
      broken.push({
        invariant: 'an operation open past the close of its day without an alarm before it',
        detail: `${e.kind} ${e.merchantOrderId} ended ${e.state} at ${e.updatedAt}, after the close ${new Date(close).toISOString()}`,
      });
  }
  for (const v of w.host.voids) {
    const row = w.entries().find((e) => e.kind === 'void' && e.merchantOrderId === v.merchantVoidId);
    const standing = v.cancellation === 1 || v.cancellation === 3;
    if (row && standing && NOTHING_GIVEN.has(row.state))
      broken.push({
        invariant: 'a refund the terminal reports undone or not given',
        detail: `void ${v.merchantVoidId} ends ${row.state}, the host holds it (CancellationStatus ${v.cancellation})`,
      });
  }
  for (const s of w.host.sales) {
    if (s.terminal === 'other' && !w.host.charged(s))
      broken.push({
        invariant: "another terminal's sale undone by this one",
        detail: `the other terminal's sale ${s.paymentId} under order id ${s.merchantOrderId} shows Status ${s.status}/${s.confirmation}`,
      });
    const refunds = w.host.refundsOf(s.paymentId);
    if (refunds > 1)
      broken.push({ invariant: 'two refunds for one sale', detail: `sale ${s.merchantOrderId}: ${refunds} refunds` });
  }
  broken.push(...pixMisreported(w));
  for (const p of w.host.pix) {
    if (p.refunds.length > 1)
      broken.push({
        invariant: 'two refunds for one sale',
        detail: `Pix ${p.merchantOrderId}: ${p.refunds.length} refunds asked`,
      });
  }
  broken.push(...dayMiscounts(w));
  return { broken, story: w.story };
}

/**
 * `npm run chaos -- --sales N [--seed S] [--kill-rate R] [--fault-rate F] [--pinpad-fault-rate P]
 *   [--timing ppc930|fast] [--timing-scale S] [--slow-share X] [--merchants 1|2] [--void-rate V]
 *   [--brownout on|off] [--qr-rate Q] [--pix-rate X] [--late-qr-share L]
 *   [--cnp ecommerce|webservice15|both|off] [--cnp-rate C]`
 *
 * The daemon (`omnipos run`) as a child process, SIGKILLed at random points during N sales driven
 * through its API; its virtual pinpad (`omnipos sim pinpad`) its own process that survives every kill
 * (a new secure session each start). The pinpad's faults (issue 18): delays, lost ACKs, bad CRCs, line
 * noise, truncated and lost answers, a CAN that drops the EMV context, a disconnect with replug; a real
 * Gertec PPC930's times (`--timing ppc930`; `--timing fast` or a scale below 1 runs faster, then a share,
 * `--slow-share`, at the real times: both processes restart at the phase's edges). The strict sandbox
 * host in this process, its dialect, not-found shape and delayed visibility drawn from the seed (issue
 * 16), injecting faults (latency, 5xx, resets before and after recording, withheld answers, the host's
 * published error numbers on the confirmation, undo and void routes, before or after the work, so the
 * client must query); a brown-out near the daily close (the host's clock two minutes before it while
 * undos are refused, then past it: issue 17); with `--merchants 2` a second daemon for the host's second
 * merchant (own state directory and pinpad, orderIdTerminal 2001). Wallet QR (`--qr-rate`) and Pix
 * (`--pix-rate`) sales: the wallet pays the code at once, never, or (`--late-qr-share`) after the
 * terminal's validity while the host still takes it (issue 29): the terminal's watch must undo it.
 * Card-not-present sales (`--cnp`, cnp-sales.ts: phone orders and pre-authorizations typed on the
 * pinpad, captured whole, in part or late, voided, left open) on the e-commerce API, the webservice 1.5,
 * or `both` (one terminal each). Voids, too, may reach the query host late. Sub-second timeouts for the
 * terminal's calls to the host; the run's own waits are deadlines long enough for a loaded machine.
 * Then, faults off, clean starts that settle the outboxes (past the day's close if needed), and a
 * reconciliation of the journals with the hosts' ledgers (reconcile.ts, reconcile-cnp.ts). A run
 * stopped by SIGTERM or SIGINT kills its daemons and pinpads (children.ts). Exits 0 when everything
 * reconciles, 1 otherwise.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { createProgress } from '../../src/cli/progress.js';
import { createLogger } from '../../src/core/log/index.js';
import { nextDailyClose } from '../../src/engine/daily-close.js';
import { buildSandbox, listenSandbox, type LedgerReport, sandboxEnv } from '../../src/sandbox/index.js';
import {
  CNP_ROUTES,
  CREDIT_CARDS,
  DEBIT_CARDS,
  ERROR_ROUTES,
  ERRORS,
  faultName,
  FAULTS,
  PINPAD_FAULTS,
  pinpadFaultName,
  ROUTES,
  WS15_ROUTES,
} from './faults.js';
import { killChildrenOnStop } from './children.js';
import { cnpBackends, isCnpOption } from './cnp-backends.js';
import { drawCnp } from './cnp-draw.js';
import { captureLate, cnpSale, newCnpFigures, type CnpHooks, type CnpIntent } from './cnp-sales.js';
import { chaosTerminals } from './merchants.js';
import { qrOrPixSale } from './qr-sales.js';
import { count, seededRandom } from './random.js';
import { createPayment, newCreateFigures } from './create.js';
import { drawSale, type MixRates } from './mix.js';
import { reportAndExit } from './report.js';
import { settle, settleThroughClose } from './settle.js';
import { isReal, REAL_PPC930, sleep, type Terminal, type Timing } from './terminal.js';

const { values } = parseArgs({
  options: {
    sales: { type: 'string', default: '50' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    'kill-rate': { type: 'string', default: '0.25' },
    'fault-rate': { type: 'string', default: '0.3' },
    'pinpad-fault-rate': { type: 'string', default: '0.1' },
    timing: { type: 'string', default: 'ppc930' },
    'timing-scale': { type: 'string', default: '1' },
    'slow-share': { type: 'string', default: '0.1' },
    merchants: { type: 'string', default: '2' },
    'void-rate': { type: 'string', default: '0.1' },
    brownout: { type: 'string', default: 'on' },
    'qr-rate': { type: 'string', default: '0.1' },
    'pix-rate': { type: 'string', default: '0.1' },
    'late-qr-share': { type: 'string', default: '0.3' },
    cnp: { type: 'string', default: 'ecommerce' },
    'cnp-rate': { type: 'string', default: '0.12' },
  },
});
killChildrenOnStop();
const SALES = Number(values.sales);
const KILL_RATE = Number(values['kill-rate']);
const FAULT_RATE = Number(values['fault-rate']);
const TIMING: Timing = { name: values.timing === 'fast' ? 'fast' : 'ppc930', scale: Number(values['timing-scale']) };
if (values.timing !== 'fast' && values.timing !== 'ppc930') throw new Error('--timing: ppc930 or fast');
// at the real times already, every sale is a slow one: no phase to switch to
const SLOW_SHARE = isReal(TIMING) ? 0 : Number(values['slow-share']);
const MERCHANTS = Number(values.merchants);
const VOID_RATE = Number(values['void-rate']);
const BROWNOUT = values.brownout !== 'off';
/** The terminal's QR validity (its minimum, 30 s) and the host's, longer: a late payment is still taken. */
const TERMINAL_QR_VALIDITY_S = 30;
if (MERCHANTS !== 1 && MERCHANTS !== 2) throw new Error('--merchants: 1 or 2');
const CNP = values.cnp;
if (!isCnpOption(CNP)) throw new Error('--cnp: ecommerce, webservice15, both or off');
const { random, pick } = seededRandom(Number(values.seed));
const RATES: MixRates = {
  ...{ kill: KILL_RATE, void: VOID_RATE, pinpadFault: Number(values['pinpad-fault-rate']) },
  ...{ qr: Number(values['qr-rate']), pix: Number(values['pix-rate']), lateQrShare: Number(values['late-qr-share']) },
  cnp: CNP === 'off' ? 0 : Number(values['cnp-rate']),
};

const started = Date.now();
const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-chaos-'));
const host = buildSandbox({
  dbFile: path.join(dir, 'acquirer.db'),
  log: createLogger({ level: 'silent' }),
  withholdMs: 1500,
  qrValidityMs: 10 * TERMINAL_QR_VALIDITY_S * 1000,
});
const sandbox = await listenSandbox(host);
const cnp = await cnpBackends(CNP, { dir, merchants: MERCHANTS, now: () => host.ctx.clock.now(), timeoutMs: 500 });
const control = async (p: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<any> => {
  const r = await request(`${sandbox.url}${p}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  if (r.statusCode >= 400) throw new Error(`${method} ${p}: ${r.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
};
// The host as the manual shows it, drawn from the seed (issue 16): an answer dialect, a not-found
// shape, and a sale that may reach the query host only seconds after it was made.
const hostScenario = {
  dialect: pick(['pt', 'en'] as const),
  notFound: pick(['manual', '318', 'empty-list', 'payments-empty'] as const),
  visibilityDelayMs: pick([0, 0, 1000, 3000] as const),
};
// The terminals build their wallet QR codes (qr.provider terminal, the sandbox's default): the host registers them.
await control('/sandbox/scenario', 'POST', { ...hostScenario, registersTerminalQr: true });

const shared = {
  OMNIPOS_CONFIG: '',
  OMNIPOS_SANDBOX__EMBEDDED: 'false',
  OMNIPOS_ACQUIRER__TIMEOUT_MS: '500',
  OMNIPOS_PAYMENTS__ECR_DECISION_SECONDS: '1',
  OMNIPOS_LOG__LEVEL: 'debug',
  OMNIPOS_ALARMS__CHECK_SECONDS: '1',
  OMNIPOS_QR__VALIDITY_SECONDS: String(TERMINAL_QR_VALIDITY_S),
  OMNIPOS_QR__POLL_MS: '250',
  OMNIPOS_QR__WATCH_MARGIN_SECONDS: '90',
  ...sandboxEnv(sandbox),
};
const terminals = chaosTerminals(dir, MERCHANTS, (i) => cnp.env(i));
const hostFaults: Record<string, number> = {};
const pinpadFaults: Record<string, number> = {};
const decisions: Record<string, number> = {};
const createFigures = newCreateFigures();
const voids: Record<string, number> = {};
const busyWith: Record<string, number> = {};
const codeSales: Record<string, number> = {};
/** Wallet QR payments made after the terminal's validity, still running. */
const latePayments: Promise<void>[] = [];
/** How long the run waits for a sale to leave `pending` (a loaded machine is slow; an early end only skips its decision). */
const SALE_WAIT_MS = 20_000;
const PIX_PAYER = { name: 'Maria da Silva', document: '52998224725' };
let slowSales = 0;
/** Health reads during and at the end of the brown-out that showed UNDO_NEAR_CLOSE. */
let undoNearCloseSeen = 0;
/** What the cash register asked of each sale it decided, and the API's answer. */
const intents = new Map<string, { decision: string; status: number }>();
const cnpFigures = newCnpFigures();
const cnpIntents: CnpIntent[] = [];
let brownoutSales = 0;
const brownoutAt = BROWNOUT ? Math.floor(SALES * 0.7) : -1;
const brownoutLength = Math.max(3, Math.round(SALES * 0.05));
const slowCount = Math.round(SALES * SLOW_SHARE);
const slowFrom = Math.floor(SALES * 0.35);

/** A card-not-present sale's cash register: the daemon restarted after a kill, its waits. */
const cnpHooks = (t: Terminal, slow: boolean): CnpHooks => ({
  restart: async () => {
    await t.startDaemon(shared);
    t.restarts++;
  },
  waitMs: SALE_WAIT_MS,
  busyMs: slow ? 300_000 : 120_000,
  figures: cnpFigures,
});

async function hostFault(spec: Record<string, unknown>): Promise<void> {
  await control('/sandbox/faults', 'POST', spec).catch((e: unknown) => console.error(`fault refused: ${String(e)}`));
}

for (const t of terminals) {
  await t.startPinpad(TIMING);
  await t.startDaemon(shared);
}

let closeAt: Date | undefined;
// The run's progress on standard error (a bar on a terminal, a line per quarter otherwise); the
// report stays the one JSON object on standard output.
const progress = createProgress({
  write: (t) => process.stderr.write(t),
  tty: process.stderr.isTTY === true,
  columns: process.stderr.columns,
});
for (let i = 0; i < SALES; i++) {
  progress.update('chaos: sales started', i, SALES);
  // The slow profile for a share of the sales: every terminal's pinpad restarted on ppc930, then back.
  if (slowCount > 0 && (i === slowFrom || i === slowFrom + slowCount)) {
    for (const t of terminals) await t.switchTiming(i === slowFrom ? REAL_PPC930 : TIMING, shared);
  }
  const slow = isReal(TIMING) || (slowCount > 0 && i >= slowFrom && i < slowFrom + slowCount);
  if (slow) slowSales++;
  // The brown-out: the host's day two minutes from its close, undos refused, confirmations slow; every
  // sale of the window is undone by the cash register; then the host's clock passes the close.
  if (i === brownoutAt) {
    const hostNow = ((await control('/sandbox/clock', 'GET')) as { now: string }).now;
    closeAt = nextDailyClose(new Date(hostNow));
    await control('/sandbox/faults', 'DELETE');
    await control('/sandbox/clock', 'POST', { now: new Date(closeAt.getTime() - 120_000).toISOString() });
    for (const route of ['saleUndo', 'saleUndoByOrderId', 'saleUndoPut', 'saleUndoByOrderIdPut'])
      await hostFault({ route, status: 503, times: 1_000_000 });
    await hostFault({ route: 'saleConfirm', latencyMs: 700, times: 1_000_000 });
  }
  const brownout = i >= brownoutAt && i < brownoutAt + brownoutLength && brownoutAt >= 0;
  if (brownout) brownoutSales++;
  if (i === brownoutAt + brownoutLength && brownoutAt >= 0 && closeAt) {
    // Two alarm checks' time for the undos still refused to be seen as near the close.
    await sleep(2500);
    for (const t of terminals) {
      const h = t.alive() ? await t.call('GET', '/v1/health').catch(() => undefined) : undefined;
      if ((h?.body?.alarms ?? []).some((a: { code: string }) => a.code === 'UNDO_NEAR_CLOSE')) undoNearCloseSeen++;
    }
    await control('/sandbox/faults', 'DELETE');
    await control('/sandbox/clock', 'POST', { now: new Date(closeAt.getTime() + 60_000).toISOString() });
  }
  const t = terminals.length === 1 ? (terminals[0] as Terminal) : pick(terminals);
  if (!brownout && random() < FAULT_RATE) {
    if (random() < 0.5) {
      const f = pick(FAULTS);
      count(hostFaults, faultName(f));
      await hostFault({ route: pick(ROUTES), ...f, times: 1 });
    } else {
      const e = pick(ERRORS);
      const handled = random() < 0.5;
      const route = pick(ERROR_ROUTES);
      count(
        hostFaults,
        `error:${e.error}${handled ? ' after the work' : ''} on ${route.startsWith('void') ? 'void' : route}`,
      );
      await hostFault({ route, ...e, handled, times: 1 });
    }
  }
  const sale = drawSale<{ name: string; via: string }, (typeof PINPAD_FAULTS)[number]>({ random, pick }, RATES, {
    brownout,
    slow,
    cards: { credit: CREDIT_CARDS, debit: DEBIT_CARDS },
    faults: PINPAD_FAULTS,
  });
  const { confirmation, method, plan, amount, killAfter, decision, voidIt } = sale;
  const backend = cnp.backendOf(terminals.indexOf(t));
  if (method === 'cnp' && backend) {
    const draw = drawCnp({ random, pick }, backend, { kill: KILL_RATE, voidRate: VOID_RATE, slow });
    // The backend's host meets transport faults on the routes of these sales (the webservice 1.5's: its messages).
    if (random() < FAULT_RATE) {
      const [f, route] = [pick(FAULTS), backend === 'ecommerce' ? pick(CNP_ROUTES) : pick(WS15_ROUTES)];
      count(hostFaults, `${faultName(f)} on ${route}`);
      if (backend === 'ecommerce') await hostFault({ route, ...f, times: 1 });
      else cnp.ws15Fault(route, { ...f, times: 1 });
    }
    const intent = await cnpSale(t, draw, `chaos-${String(values.seed)}-${i}`, cnpHooks(t, slow)).catch(
      () => undefined,
    );
    if (intent) cnpIntents.push(intent);
    if (!t.alive()) await cnpHooks(t, slow).restart();
    continue;
  }
  if (sale.card) await t.customer({ cmd: 'card', choice: { ...sale.card, pin: sale.wrongPin ? '0000' : 'right' } });
  if (sale.pinpadFault) {
    count(pinpadFaults, pinpadFaultName(sale.pinpadFault));
    await t.customer({ cmd: 'fault', fault: sale.pinpadFault });
  }
  // The kill aims at this daemon only, and is awaited whatever the sale did.
  const target = t.daemon;
  const killer = killAfter === undefined ? undefined : sleep(killAfter).then(() => t.kill(target));
  try {
    // A cash register waits while the terminal is busy finishing the previous sale (a slow pinpad, an undo),
    // or its clock is behind (503 CLOCK_BEHIND), and asks again with the same Idempotency-Key (create.ts).
    // A Pix names its payer, as the e-commerce API requires.
    const body = { amount, method, confirmation, ...(method === 'pix' ? { payer: PIX_PAYER } : {}) };
    const created = await createPayment(t, body, `chaos-${String(values.seed)}-${i}`, {
      busyMs: slow ? 300_000 : 120_000,
      clockMs: 120_000,
      figures: createFigures,
    });
    if (created.status === 409) {
      // What kept the terminal busy: the open payments' states (a figure of the run).
      for (const st of ['pending', 'approved'])
        for (const p of (await t.call('GET', `/v1/payments?status=${st}`)).body?.payments ?? [])
          count(busyWith, String(p.state));
    }
    if (created.status === 202 || created.status === 200) {
      const id = created.body.id as string;
      if (method === 'wallet-qr' || method === 'pix') {
        const q = await qrOrPixSale(t, id, method, plan, {
          ledger: () => control('/sandbox/ledger', 'GET') as Promise<LedgerReport>,
          payPix: async (paymentId) => {
            await control(`/sandbox/pix/${encodeURIComponent(paymentId)}/pay`, 'POST');
          },
          walletUrl: sandbox.urls.wallet,
          lateAfterMs: (TERMINAL_QR_VALIDITY_S + 5) * 1000,
          waitMs: SALE_WAIT_MS,
        });
        count(codeSales, `${method} ${plan}${q.shown ? '' : ' (no code shown)'}${q.now ? `: ${q.now}` : ''}`);
        if (q.late) latePayments.push(q.late.then((r) => count(codeSales, `${method} late: ${r}`)));
      }
      const s = await settle(t, `/v1/payments/${id}`, slow ? 30_000 : SALE_WAIT_MS);
      if (s?.status === 'approved') {
        count(decisions, decision);
        if (decision !== 'none') {
          const d = await t.call('POST', `/v1/payments/${id}/${decision}`);
          intents.set(String(created.body.merchantOrderId), { decision, status: d.status });
        }
      }
      // A supervisor voids a share of the sales that end confirmed (by the cash register or automatically).
      if (s?.status === 'approved' || s?.status === 'confirmed') {
        if (voidIt) {
          const c = await settle(t, `/v1/payments/${id}`, 5_000, ['pending', 'approved']);
          if (c?.status === 'confirmed') {
            const v = await t.call('POST', `/v1/payments/${id}/void`, {}, { 'x-supervisor-token': t.supervisor });
            count(voids, `create ${v.status}`);
            if (v.status === 202 || v.status === 200) {
              const vs = await settle(t, `/v1/voids/${v.body.id}`, slow ? 30_000 : 5_000);
              count(voids, `then ${String(vs?.status)}`);
            }
          }
        }
      }
    }
  } catch {
    /* the daemon died under the request: that is the point */
  } finally {
    await killer;
  }
  if (brownout && t.alive()) {
    const h = await t.call('GET', '/v1/health').catch(() => undefined);
    if ((h?.body?.alarms ?? []).some((a: { code: string }) => a.code === 'UNDO_NEAR_CLOSE')) undoNearCloseSeen++;
  }
  if (!t.alive()) {
    await t.startDaemon(shared);
    t.restarts++;
  }
}
progress.update('chaos: sales started', SALES, SALES);
progress.end();
if (slowCount > 0 && slowFrom + slowCount >= SALES) for (const t of terminals) await t.switchTiming(TIMING, shared);

// The late wallet payments land (the host still takes them), the pre-authorizations left for later are
// captured (the host's day past its close), then faults off, one clean run until nothing is pending.
await Promise.all(latePayments);
await captureLate(terminals, cnpIntents, (t) => cnpHooks(t, false));
await control('/sandbox/faults', 'DELETE');
const closedDay = await settleThroughClose(terminals, {
  restart: (t) => t.startDaemon(shared),
  hostNow: async () => new Date(((await control('/sandbox/clock', 'GET')) as { now: string }).now),
  moveHost: (body) => control('/sandbox/clock', 'POST', body),
});
await reportAndExit({
  terminals,
  ledger: () => control('/sandbox/ledger', 'GET') as Promise<LedgerReport>,
  ws15Ledger: () => cnp.ws15Ledger(),
  closeSandbox: async () => {
    await cnp.close();
    await sandbox.close();
  },
  intents,
  cnpIntents,
  started,
  dir,
  figures: {
    sales: SALES,
    seed: values.seed,
    hostScenario,
    merchants: MERCHANTS,
    kills: Object.fromEntries(terminals.map((t) => [t.name, t.kills])),
    restarts: Object.fromEntries(terminals.map((t) => [t.name, t.restarts])),
    creates: createFigures.creates,
    clockBehind: createFigures.clockBehind,
    busyWith,
    codeSales,
    decisions,
    voids,
    hostFaults,
    pinpadFaults,
    slowSales,
    brownout: BROWNOUT
      ? { at: brownoutAt, sales: brownoutSales, close: closeAt?.toISOString(), undoNearCloseSeen }
      : 'off',
    closedDay,
    cnpSales: { option: CNP, ...cnpFigures },
  },
});

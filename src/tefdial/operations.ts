import { isOmniposError, type Logger } from '../core/index.js';
import type { Environment } from '../config/index.js';
import type { DayBook } from '../operations/index.js';
import {
  journalData,
  type SupervisorGate,
  voidStatus,
  type SaleEngine,
  type VoidData,
  type VoidEngine,
  type VoidStateName,
} from '../engine/index.js';
import { PaymentRequest, paymentView } from '../api/index.js';
import { paymentReceipt, receiptLines, type ReceiptColumns } from '../receipt/index.js';
import type { ReceiptSubject } from '../engine/index.js';
import type { Journal, JournalEntry } from '../store/index.js';
import type { TefDialFields } from './codec.js';
import type { VoidLedger } from './folders.js';
import {
  copyFields,
  dateAndTime,
  finalization,
  head,
  NETWORK,
  receiptFields,
  refusal,
  STATUS,
  type Fields,
} from './answers.js';
import { identification, RequestFieldError, saleRequest, voidReference } from './requests.js';

/** What the TEF Dial interface drives: the engines and journal the local API drives. */
export interface TefDialDeps {
  engine: SaleEngine;
  voids?: VoidEngine | undefined;
  journal: Journal;
  /** Throws (PINPAD_OPENING) while the pinpad's first secure session is opening. */
  pinpadOpen?: (() => void) | undefined;
  environment: Environment;
  columns: ReceiptColumns;
  log: Logger;
  /** Which void each CNC identification started (none: CNC is refused). */
  ledger?: VoidLedger | undefined;
  /** Aborted when the interface stops: a payment still in progress is answered after the restart. */
  signal?: AbortSignal | undefined;
  /** How often a payment in progress is read again, ms. */
  pollMs?: number;
  /**
   * How long a request waits for the terminal's payment in progress to end before it is refused
   * busy, ms (default 20 s): the payment answered last may still be closing its card session.
   */
  busyWaitMs?: number;
  /** Whether a payment holds the terminal now (read before trying, so a void's password is checked once free). */
  busy?: (() => boolean) | undefined;
  /** The day's report and close (ADM); none: ADM is refused. */
  day?: Pick<DayBook, 'report' | 'close'> | undefined;
  /** The supervisor's gate the API's day close uses (ADM's close); none: the close is refused. */
  supervisor?: Pick<SupervisorGate, 'authorize'> | undefined;
}

/** The idempotency key of a PDV's identification, in the journal beside the API's keys. */
export const keyOf = (id: string): string => `tefdial:${id}`;

/** The extension field a CNC carries the supervisor's password in (no public field: docs/tef-dial.md). */
export const SUPERVISOR_FIELD = '900-000';

/** The supervisor's password a request carries, or '' (absent, or blanked once read: docs/tef-dial.md). */
export const supervisorPassword = (req: TefDialFields): string => (req.get(SUPERVISOR_FIELD) ?? '').trim();

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Reads the row until its view leaves `pending` (the engine's own deadlines end every payment). */
async function settled(
  deps: TefDialDeps,
  id: number,
  view: (e: JournalEntry) => string,
  done?: Promise<void>,
): Promise<JournalEntry> {
  for (;;) {
    const entry = deps.journal.get(id) as JournalEntry;
    if (view(entry) !== 'pending') return entry;
    deps.signal?.throwIfAborted();
    await Promise.race([done?.catch(() => undefined), sleep(deps.pollMs ?? 50)]);
    await sleep(5);
  }
}

/**
 * Runs `start` once the terminal's payment lock is free: a PDV sends its next request as soon as
 * it has the last answer, while that payment may still be closing its card session. ENGINE_BUSY
 * only past `busyWaitMs`.
 */
async function whenFree<T>(deps: TefDialDeps, start: () => Promise<T>): Promise<T> {
  const until = Date.now() + (deps.busyWaitMs ?? 20_000);
  for (;;) {
    while (deps.busy?.() === true && Date.now() < until) {
      deps.signal?.throwIfAborted();
      await sleep(deps.pollMs ?? 50);
    }
    try {
      return await start();
    } catch (e) {
      if (!isOmniposError(e, 'ENGINE_BUSY') || Date.now() >= until) throw e;
    }
    deps.signal?.throwIfAborted();
    await sleep(deps.pollMs ?? 50);
  }
}

const saleStatus = (e: JournalEntry): string => String(paymentView(e).status);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The convention's pending rule: a TEF Dial sale still awaiting the PDV's CNF/NCN when the PDV
 * asks for something else is undone (never confirmed by us): the PDV that lost it never printed
 * its fiscal document for it, or will confirm the sale it resends under the same identification.
 */
export async function undoPending(deps: TefDialDeps, exceptKey?: string): Promise<number[]> {
  const undone: number[] = [];
  for (const e of deps.journal.inStates(['awaiting-decision'])) {
    const key = (e.data as { idempotencyKey?: string }).idempotencyKey;
    if (e.kind !== 'sale' || !key?.startsWith('tefdial:') || key === exceptKey) continue;
    try {
      await deps.engine.decide(e.id, 'undo', 'ecr');
      undone.push(e.id);
      deps.log.warn({ id: e.id }, 'TEF Dial: a sale without CNF/NCN undone at the next request (pending rule)');
    } catch (err) {
      if (!isOmniposError(err, 'ENGINE_NOT_ALLOWED')) throw err;
    }
  }
  return undone;
}

/**
 * The receipt's two copies as text lines, each as the API's receipt route gives it
 * (`GET /v1/payments/{id}/receipt?format=text&copy=…`, the printer's width): `028-000`/`029-xxx`
 * carry the customer's, `712-000`…`715-xxx` both when the PDV prints them (answers.ts).
 */
function receiptCopies(deps: TefDialDeps, subject: ReceiptSubject): { customer: string[]; merchant: string[] } {
  const lines = (copy: 'customer' | 'merchant'): string[] =>
    receiptLines(paymentReceipt(subject, { environment: deps.environment, copy, columns: deps.columns }), deps.columns);
  return { customer: lines('customer'), merchant: lines('merchant') };
}

/** `028-000`/`029-xxx` (the customer's copy) and, when the PDV prints them, the two copies. */
function receiptBlock(deps: TefDialDeps, req: TefDialFields, subject: ReceiptSubject): Fields {
  const copies = receiptCopies(deps, subject);
  return [...receiptFields(copies.customer), ...copyFields(req, copies)];
}

function saleAnswer(deps: TefDialDeps, req: TefDialFields, entry: JournalEntry): Fields {
  const view = paymentView(entry);
  const status = String(view.status);
  // A resent CRT of a sale the PDV already confirmed (a reprint) answers it approved, nothing to confirm.
  if (status !== 'approved' && status !== 'confirmed') {
    const code = status === 'declined' ? STATUS.declined : status === 'cancelled' ? STATUS.cancelled : STATUS.failed;
    const text =
      status === 'declined' ? `TRANSACAO NEGADA ${str(view.returnMessage)}` : `TRANSACAO NAO EFETUADA (${status})`;
    return [...refusal(req, code, text.trim()), ['027-000', finalization(entry)]];
  }
  const fiscal = view.fiscal as { cardBrandName?: string } | undefined;
  const out: Fields = [
    ...head(req),
    ['003-000', String(entry.amount)],
    ['004-000', '0'],
    ['009-000', STATUS.approved],
    // 729-000 (PayGo's "Status da confirmação"): 2 the sale waits for the PDV's CNF or NCN; 1 already confirmed.
    ['729-000', status === 'confirmed' ? '1' : '2'],
    ['010-000', NETWORK],
    ...(fiscal?.cardBrandName ? ([['010-003', fiscal.cardBrandName]] as Fields) : []),
    ['012-000', str(view.nsu)],
    ['013-000', str(view.authorizationCode)],
    ...(Number(view.installments) > 1 ? ([['018-000', String(view.installments)]] as Fields) : []),
    ...dateAndTime(entry.updatedAt),
    ['027-000', finalization(entry)],
    ...receiptBlock(deps, req, deps.engine.receiptOf(entry.id).subject),
    ['030-000', 'TRANSACAO APROVADA'],
  ];
  return out;
}

/** CRT: a card sale through the engine, `confirmation: ecr`; the same identification gives the same sale. */
export async function crt(deps: TefDialDeps, req: TefDialFields): Promise<Fields> {
  const id = identification(req);
  const parsed = PaymentRequest.safeParse(saleRequest(req));
  if (!parsed.success)
    throw new RequestFieldError(
      '003-000',
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  const key = keyOf(id);
  const existing = deps.journal.byIdempotencyKey(key);
  if (existing) {
    if (existing.amount !== parsed.data.amount || existing.kind !== 'sale')
      return refusal(req, STATUS.refused, `IDENTIFICACAO ${id} JA USADA EM OUTRA OPERACAO`);
    return saleAnswer(deps, req, await settled(deps, existing.id, saleStatus));
  }
  await undoPending(deps, key);
  try {
    deps.pinpadOpen?.();
    const { entry, done } = await whenFree(deps, () =>
      deps.engine.start(
        { ...parsed.data, method: parsed.data.method as 'credit' | 'debit' | 'voucher' },
        { idempotencyKey: key },
      ),
    );
    done.catch(() => undefined);
    return saleAnswer(deps, req, await settled(deps, entry.id, saleStatus, done));
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_BUSY')) return refusal(req, STATUS.refused, 'TERMINAL OCUPADO COM OUTRO PAGAMENTO');
    if (isOmniposError(e)) return refusal(req, STATUS.refused, `OPERACAO RECUSADA: ${e.message}`);
    throw e;
  }
}

/** The sale a CNF/NCN names: by its `027-000`, else by its NSU `012-000`. */
function namedSale(deps: TefDialDeps, req: TefDialFields): JournalEntry | undefined {
  const fin = req.get('027-000')?.trim();
  if (fin) {
    const e = deps.journal.byMerchantOrderId(fin);
    if (e?.kind === 'sale') return e;
  }
  const nsu = req.get('012-000')?.trim();
  if (!nsu) return undefined;
  return deps.journal
    .list({ states: ['awaiting-decision'], limit: 1000 })
    .find((e) => e.kind === 'sale' && paymentView(e).nsu === nsu);
}

/** CNF / NCN: the PDV's decision on its sale (no answer file: the status file says it was read). */
export async function decide(deps: TefDialDeps, req: TefDialFields, decision: 'confirm' | 'undo'): Promise<void> {
  const sale = namedSale(deps, req);
  if (!sale) {
    deps.log.warn({ finalization: req.get('027-000') }, `TEF Dial: ${decision} of no known sale`);
    return;
  }
  try {
    await deps.engine.decide(sale.id, decision, 'ecr');
  } catch (e) {
    if (!isOmniposError(e, 'ENGINE_NOT_ALLOWED')) throw e;
    // Confirmed or undone already (a resent CNF, or the pending rule came first): nothing changes.
    deps.log.warn({ id: sale.id, state: sale.state }, `TEF Dial: ${decision} of a sale that cannot take it now`);
  }
}

const voidView = (e: JournalEntry): string => voidStatus(e.state as VoidStateName);

/** CNC: a supervisor's void of an earlier sale through the void engine (the API's rule: a supervisor's credential). */
export async function cnc(deps: TefDialDeps, req: TefDialFields): Promise<Fields> {
  const id = identification(req);
  const ref = voidReference(req);
  if (!deps.voids || !deps.ledger) return refusal(req, STATUS.refused, 'CANCELAMENTO NAO DISPONIVEL');
  const voids = deps.voids;
  // The same identification again (a resend, or a restart mid-void): the void it started.
  const before = await deps.ledger.get(id);
  if (before) {
    const started = voids.voidsOf(before.saleId).filter((v) => v.createdAt >= before.at);
    const first = started[0];
    if (first) return voidAnswer(deps, req, ref.nsu, await settled(deps, first.id, voidView));
  }
  await undoPending(deps);
  const sale = deps.journal
    .list({ limit: 1000 })
    .find(
      (e) =>
        e.kind === 'sale' &&
        paymentView(e).nsu === ref.nsu &&
        (ref.date === undefined || dateAndTime(e.createdAt)[0]?.[1] === ref.date),
    );
  if (!sale) return refusal(req, STATUS.refused, `VENDA NSU ${ref.nsu} NAO ENCONTRADA`);
  try {
    deps.pinpadOpen?.();
    await deps.ledger.starting(id, sale.id, new Date(Date.now() - 1000).toISOString());
    const started = await whenFree(deps, () =>
      voids.start(sale.id, {
        amount: ref.amount,
        supervisor: { password: supervisorPassword(req), client: 'tefdial' },
      }),
    );
    started.done.catch(() => undefined);
    return voidAnswer(deps, req, ref.nsu, await settled(deps, started.entry.id, voidView, started.done));
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_BUSY')) return refusal(req, STATUS.refused, 'TERMINAL OCUPADO COM OUTRO PAGAMENTO');
    if (isOmniposError(e)) return refusal(req, STATUS.refused, `CANCELAMENTO RECUSADO: ${e.message}`);
    throw e;
  }
}

function voidAnswer(deps: TefDialDeps, req: TefDialFields, saleNsu: string, entry: JournalEntry): Fields {
  const status = voidView(entry);
  const d = journalData<VoidData>(entry);
  if (status !== 'approved')
    return [...refusal(req, STATUS.declined, `CANCELAMENTO NAO EFETUADO (${status})`), ['025-000', saleNsu]];
  return [
    ...head(req),
    ['003-000', String(entry.amount)],
    ['009-000', STATUS.approved],
    ['010-000', NETWORK],
    // The void's own NSU when the host gave one (a card void's answer carries none): never an empty field.
    ...(d.nsu ? ([['012-000', d.nsu]] as Fields) : []),
    ...dateAndTime(entry.updatedAt),
    ['025-000', saleNsu],
    ['027-000', d.merchantVoidId],
    ...(deps.voids ? receiptBlock(deps, req, deps.voids.receiptOf(entry.id).subject) : []),
    ['030-000', 'CANCELAMENTO APROVADO'],
  ];
}

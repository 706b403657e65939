import type { AcquirerDeliveryPort, Delivery, WalletCancellationPort } from '../ports.js';
import { attemptCodeWatch, type CodeWatchTask } from './code-watch.js';
import type { CnpDeliveryPort } from '../cnp-ports.js';
import { attemptCnpCapture, attemptCnpVoidPart, type CnpCaptureTask, type CnpVoidPartTask } from './cnp-changes.js';
import type { VoidDeliveryPort } from '../void/ports.js';
import { attemptPix, type PixHostPort, type PixTask } from './pix.js';
import { OUTBOX_OPERATIONS, type ConfirmTask, type UndoTask } from './tasks.js';
import { attemptUndo, visibilityOf, type UndoRaceOptions } from './undo-race.js';
import { attemptVoidUndo, type VoidConfirmTask, type VoidUndoTask } from './void.js';
import { attemptWatch, type WatchTask } from './watch.js';

/** An outbox operation's name as stored (`sale.confirm`, `pix.refund`…). */
export type OutboxOperation = (typeof OUTBOX_OPERATIONS)[keyof typeof OUTBOX_OPERATIONS];

/** The payload each operation carries: what the engine enqueued, and what an attempt keeps for the next one. */
export interface OutboxPayloads {
  'sale.confirm': ConfirmTask;
  'sale.undo': UndoTask;
  'qr.watch': WatchTask;
  'pix.cancel': PixTask;
  'pix.refund': PixTask;
  'void.confirm': VoidConfirmTask;
  'void.undo': VoidUndoTask;
  'void.code-watch': CodeWatchTask;
  'cnp.undo': UndoTask;
  'cnp.capture': CnpCaptureTask;
  'cnp.void-part': CnpVoidPartTask;
}

/** What an attempt may use: the hosts' ports (Pix and voids only when configured) and the time. */
export interface AttemptContext {
  port: AcquirerDeliveryPort;
  pix?: PixHostPort | undefined;
  voids?: VoidDeliveryPort | undefined;
  /** Where a wallet QR void's cancellation code shows applied (absent: no wallet QR voids). */
  wallet?: WalletCancellationPort | undefined;
  /** The card-not-present backend's delivery port (absent without `cardNotPresent`). */
  cnp?: CnpDeliveryPort | undefined;
  undoRace: UndoRaceOptions;
  now: Date;
  /**
   * Saves the task's payload at once, before a request with money at stake leaves (a Pix refund's
   * intent): a crash after the request finds it. Absent: nothing saved before the attempt's end.
   */
  save?: ((payload: object) => void) | undefined;
}

/** One attempt's result: the delivery, and the payload to keep when it changed. */
export interface Attempt<P> {
  delivery: Delivery;
  payload?: P | undefined;
}

const noPort = (op: OutboxOperation): Promise<Attempt<never>> =>
  Promise.resolve({ delivery: { action: 'dead-letter', reason: `unknown operation ${op}` } });

/**
 * The attempt of each operation: a registry keyed by the operation, so an operation added to
 * OUTBOX_OPERATIONS does not compile until it has a payload type and an attempt here.
 */
export const ATTEMPTS: {
  readonly [Op in OutboxOperation]: (
    ctx: AttemptContext,
    task: OutboxPayloads[Op],
  ) => Promise<Attempt<OutboxPayloads[Op]>>;
} = {
  'sale.confirm': async (c, t) => ({ delivery: await c.port.confirm(t.paymentId, t.emv) }),
  'sale.undo': (c, t) => attemptUndo(c.port, t, c.now, c.undoRace),
  'qr.watch': (c, t) => attemptWatch(c.port, t, c.now, visibilityOf(c.undoRace)),
  'pix.cancel': (c, t) => (c.pix ? attemptPix(c.pix, t, 'cancel', c.now, c.save) : noPort('pix.cancel')),
  'pix.refund': (c, t) => (c.pix ? attemptPix(c.pix, t, 'refund', c.now, c.save) : noPort('pix.refund')),
  'void.confirm': async (c, t) =>
    c.voids ? { delivery: await c.voids.confirmVoid(t.paymentId, t.voidId) } : noPort('void.confirm'),
  'void.undo': (c, t) => (c.voids ? attemptVoidUndo(c.voids, t, c.now, visibilityOf(c.undoRace)) : noPort('void.undo')),
  'void.code-watch': (c, t) =>
    c.wallet ? attemptCodeWatch(c.wallet, t, c.now, visibilityOf(c.undoRace)) : noPort('void.code-watch'),
  // The card sale's undo race, decided by the same `sale.undo` table, against the card-not-present host.
  'cnp.undo': (c, t) => (c.cnp ? attemptUndo(c.cnp, t, c.now, c.undoRace) : noPort('cnp.undo')),
  'cnp.capture': (c, t) => (c.cnp ? attemptCnpCapture(c.cnp, t) : noPort('cnp.capture')),
  'cnp.void-part': (c, t) => (c.cnp ? attemptCnpVoidPart(c.cnp, t, c.now, c.undoRace) : noPort('cnp.void-part')),
};

const OPERATIONS: ReadonlySet<string> = new Set(Object.values(OUTBOX_OPERATIONS));

export function isOutboxOperation(op: string): op is OutboxOperation {
  return OPERATIONS.has(op);
}

/**
 * The fields without which an operation's attempt cannot be made (the others are optional or
 * learnt). A stored payload that lacks one was not written by this version's engines: it is
 * dead-lettered (an alarm, the task kept), never sent half-formed.
 */
const REQUIRED: { readonly [Op in OutboxOperation]: readonly (keyof OutboxPayloads[Op] & string)[] } = {
  'sale.confirm': ['merchantOrderId', 'paymentId'],
  'sale.undo': ['merchantOrderId'],
  'qr.watch': ['merchantOrderId', 'until'],
  'pix.cancel': ['merchantOrderId', 'paymentId'],
  'pix.refund': ['merchantOrderId', 'paymentId'],
  'void.confirm': ['merchantVoidId', 'paymentId', 'voidId'],
  'void.undo': ['merchantVoidId', 'paymentId'],
  'void.code-watch': ['merchantVoidId', 'paymentId', 'until'],
  'cnp.undo': ['merchantOrderId'],
  'cnp.capture': ['merchantOrderId', 'paymentId', 'sentAt'],
  'cnp.void-part': ['merchantOrderId', 'paymentId', 'sentAt'],
};

function holds<Op extends OutboxOperation>(op: Op, payload: object): payload is OutboxPayloads[Op] {
  const fields: readonly string[] = REQUIRED[op];
  return fields.every((k) => typeof (payload as Record<string, unknown>)[k] === 'string');
}

/**
 * Attempts a stored task: its payload is what the engine enqueued for this operation (the outbox
 * keeps it as JSON and gives it back as written), checked for the fields the attempt needs.
 */
export function attemptTask<Op extends OutboxOperation>(
  op: Op,
  payload: object,
  ctx: AttemptContext,
): Promise<Attempt<OutboxPayloads[Op]>> {
  if (!holds(op, payload))
    return Promise.resolve({
      delivery: { action: 'dead-letter', reason: `${op}: the stored payload lacks ${REQUIRED[op].join(', ')}` },
    });
  const attempt: (ctx: AttemptContext, task: OutboxPayloads[Op]) => Promise<Attempt<OutboxPayloads[Op]>> = ATTEMPTS[op];
  return attempt(ctx, payload);
}

import {
  CTLS_OFF_STATUSES,
  ST_CTLSCOMMERR,
  ST_CTLSEXTCVM,
  ST_CTLSMULTIPLE,
} from '../../../../tables/pinpad/card-commands.js';
import { isPinpadError } from '../../errors.js';
import type { CommandSpec } from '../spec.js';
import { GCX, type GcxRequest, type GcxResult } from './gcx.js';
import type { GoxResult } from './gox.js';

/** What to do after a GCX status, by the contactless rules of §3.7.1 (notes 1 and 2). */
export type GcxNext = { action: 'retry'; contactless: boolean; prompt?: 'see-phone' | 'one-card' } | { action: 'fail' };

/**
 * The §3.7.1 rules as a pure function: after ST_CTLSPROBLEMS, ST_CARDBLOCKED, ST_CTLSAPPNAV,
 * ST_CTLSAPPNAUT, ST_CTLSINVALIDAT or ST_CTLSIFCHG — or a second ST_CTLSCOMMERR in a row — run GCX
 * again with contactless off; after ST_CTLSEXTCVM ask the customer to follow the phone and run it
 * again; after ST_CTLSMULTIPLE or a first ST_CTLSCOMMERR run it again as it was. Only while
 * contactless was on: with it off these statuses end the read.
 */
export function nextAfterGcx(status: number, s: { contactless: boolean; commErrorsInRow: number }): GcxNext {
  if (!s.contactless) return { action: 'fail' };
  if ((CTLS_OFF_STATUSES as readonly number[]).includes(status)) return { action: 'retry', contactless: false };
  if (status === ST_CTLSCOMMERR)
    return s.commErrorsInRow >= 1 ? { action: 'retry', contactless: false } : { action: 'retry', contactless: true };
  if (status === ST_CTLSEXTCVM) return { action: 'retry', contactless: true, prompt: 'see-phone' };
  if (status === ST_CTLSMULTIPLE) return { action: 'retry', contactless: true, prompt: 'one-card' };
  return { action: 'fail' };
}

export interface ReadCardOptions {
  signal?: AbortSignal;
  /** Told when the customer must act: follow the phone, show one card only. */
  onPrompt?: (prompt: 'see-phone' | 'one-card') => void;
  /** GCX attempts at most (default 5). */
  maxAttempts?: number;
}

/** Runs GCX under the contactless rules; the last error is rethrown when the rules say fail. */
export async function readCardWithRules(
  p: { run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: { signal?: AbortSignal }): Promise<Res> },
  req: GcxRequest,
  opts: ReadCardOptions = {},
): Promise<GcxResult> {
  let contactless = req.contactless;
  let commErrorsInRow = 0;
  const max = opts.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await p.run(GCX, { ...req, contactless }, opts.signal ? { signal: opts.signal } : {});
    } catch (e) {
      if (!isPinpadError(e) || e.code !== 'PINPAD_STATUS' || attempt >= max) throw e;
      const status = Number(e.context.status);
      const next = nextAfterGcx(status, { contactless, commErrorsInRow });
      if (next.action === 'fail') throw e;
      commErrorsInRow = status === ST_CTLSCOMMERR ? commErrorsInRow + 1 : 0;
      if (!next.contactless) commErrorsInRow = 0;
      if (next.prompt) opts.onPrompt?.(next.prompt);
      contactless = next.contactless;
    }
  }
}

/**
 * The terminal's reading of GOX (docs/pinpad.md: no offline approval). Online: go to the host. Declined:
 * the card declined. An offline approval is never accepted: from a contactless card it is a failed
 * read ("insert the card", with an alarm); from a contact chip, which GOX forbade, it is a card fault.
 */
export function goxOutcome(
  card: Pick<GcxResult, 'cardType'>,
  gox: Pick<GoxResult, 'decision'>,
): 'online' | 'declined' | 'insert-card' | 'card-fault' {
  if (gox.decision === 'online') return 'online';
  if (gox.decision === 'declined') return 'declined';
  return card.cardType === 'contactless-chip' ? 'insert-card' : 'card-fault';
}

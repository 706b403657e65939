import { decodeTlv } from '../../../emv/index.js';
import type { TableRecord } from '../../../emv/index.js';
import type { SimContext, SimHandler } from '../engine.js';
import { chipOf } from './deck.js';
import {
  answerTags,
  chooseChipCvm,
  cryptogram,
  issuerScripts,
  terminalOverrides,
  transactionObjects,
  unpredictable,
} from './emv.js';
import { answer, bin, fail, hasKey, num, readParams, ST, str } from './kit.js';
import { enterPin } from './pin-entry.js';
import { atcExhausted, cardSim, type CardSim, type HeldCard } from './state.js';

/** The last objects GOX produced, for FCX (per virtual pinpad). */
const LAST = new WeakMap<CardSim, { objects: Map<string, string>; record: TableRecord | undefined }>();

function recordFor(sim: CardSim, held: HeldCard, acquirer: string): TableRecord | undefined {
  const chip = chipOf(held.card);
  return chip ? sim.tables.aidRecords(chip.aid).find((r) => r.acquirer === acquirer) : undefined;
}

/** The contactless CVM limit of the AID record (T1_CTLSCVMLIM, cents in hex digits read as decimal digits per §4.1.1). */
function cvmLimit(r: TableRecord | undefined): number {
  const v = r?.fields.T1_CTLSCVMLIM;
  return v && /^\d+$/.test(v) ? Number(v) : Number.POSITIVE_INFINITY;
}

/**
 * GOX (§3.7.3, §6.9.3, blocking during PIN entry): terminal risk management and cardholder
 * verification. A contact chip verifies the PIN online (the test cards' CVM lists start with
 * "enciphered PIN online", 42 03); a contactless card asks for it only above the AID's contactless
 * CVM limit, and a phone verifies on itself. The card asks to go online (ARQC) — except the test
 * card made to approve offline over contactless, which the terminal must refuse.
 */
export const gox: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const held = sim.held;
  if (!held || held.via === 'stripe' || held.via === 'contactless-stripe' || held.goxDone !== 'no')
    return fail('GOX', ST.INVCALL);
  const p = readParams(cmd);
  const acq = str(p.get('SPE_ACQREF'));
  const method = str(p.get('SPE_MTHDPIN'));
  const slot = num(p.get('SPE_KEYIDX'));
  if (!acq || method === undefined || slot === undefined) return fail('GOX', ST.MANDAT);
  if (!held.aidTables.some((a) => a.acquirer === acq)) return fail('GOX', ST.INVPARM);
  // SPE_EMVDATA: terminal data over the AID record's (a kiosk's 9F35 and 9F33 without signature).
  const terminal = terminalOverrides(bin(p.get('SPE_EMVDATA')));
  if (!terminal) return fail('GOX', ST.INVPARM);
  const r = await chipVerify(ctx, {
    acquirer: acq,
    pinMethod: method,
    keySlot: slot,
    amount: num(p.get('SPE_AMOUNT')) ?? held.amount,
    cashback: num(p.get('SPE_CASHBACK')) ?? held.cashback,
    transactionType: bin(p.get('SPE_TRNTYPE'))?.[0] ?? held.transactionType,
    terminal,
    message: str(p.get('SPE_DSPMSG')) ?? 'DIGITE A SENHA',
    timeoutS: num(p.get('SPE_TIMEOUT')) ?? 60,
    tagList: bin(p.get('SPE_TAGLIST')),
  });
  if (typeof r === 'number') return fail('GOX', r);
  const res = `${r.decision}${r.cvm === 'signature' ? '1' : '0'}${r.cvm === 'online' ? '2' : '0'}${r.cvm === 'device' ? '1' : '0'}00`;
  return answer('GOX', [
    ['PP_GOXRES', res],
    ['PP_PINBLK', r.pinBlock ? Buffer.from(r.pinBlock.block, 'hex') : undefined],
    ['PP_KSN', r.pinBlock ? Buffer.from(r.pinBlock.ksn, 'hex') : undefined],
    ['PP_EMVDATA', r.tags],
  ]);
};

/** What GOX (§3.7.3) and the classic GOC (§3.6.3) ask of the chip, each read by its own layout. */
export interface ChipVerifyInput {
  acquirer: string;
  /** "3" = DUKPT:TDES:PIN (the only method of this pinpad). */
  pinMethod: string;
  keySlot: number;
  amount: number;
  cashback: number;
  transactionType: number;
  terminal: Map<string, string>;
  message: string;
  timeoutS: number;
  tagList: Uint8Array | undefined;
}

/** The card's first decision: "0" approved offline, "1" declined, "2" online; or a status to answer. */
export interface ChipVerifyResult {
  decision: '0' | '1' | '2';
  cvm: 'none' | 'online' | 'device' | 'signature';
  pinBlock?: { block: string; ksn: string };
  tags: Uint8Array | undefined;
}

/**
 * Terminal risk management and cardholder verification for the held chip card (GOX and GOC): a
 * contact chip follows its CVM list, a contactless card asks for the PIN above the AID's contactless
 * CVM limit, a phone verifies on itself; the card goes online (ARQC) except the test card made to
 * approve offline over contactless. Returns a status (number) when the command must fail.
 */
export async function chipVerify(ctx: SimContext, i: ChipVerifyInput): Promise<ChipVerifyResult | number> {
  const sim = cardSim(ctx.state);
  const held = sim.held!;
  if (i.pinMethod !== '3' || !hasKey(ctx, 'dukptPin', i.keySlot)) return ST.ERRKEY;
  const { amount, cashback, terminal } = i;
  const record = recordFor(sim, held, i.acquirer);
  const chip = chipOf(held.card)!;
  const c = held.card;
  let pinBlock: { block: string; ksn: string } | undefined;
  let cvm = 'none' as ChipVerifyResult['cvm'];
  let chipCvmResults: string | undefined;
  if (held.via === 'chip') {
    const chosen = chooseChipCvm(chip.emv['8E'], terminal.get('9F33') ?? record?.fields.T1_TRMCAPAB, amount);
    cvm = chosen.cvm;
    chipCvmResults = chosen.results;
  } else if ((chip.deviceType ?? '00') !== '00') cvm = 'device';
  else if (amount > cvmLimit(record)) cvm = 'online';
  if (held.via === 'chip' && sim.deck.removeEarly === 'at-pin') {
    // the customer pulls the card at the PIN screen: the chip is gone, the read is over
    ctx.notify(i.message);
    held.goxDone = 'failed';
    held.inserted = false;
    return ST.ERRCARD;
  }
  if (cvm === 'online') {
    const r = await enterPin(ctx, sim, c.pin, i.timeoutS, i.message);
    if ('status' in r) {
      held.goxDone = 'failed';
      return r.status === 'timeout' ? ST.TIMEOUT : ST.CANCEL;
    }
    pinBlock = sim.dukpt.encryptPin(r.pin, c.pan);
  }
  if (atcExhausted(sim, c.pan)) {
    // GENERATE AC refused (the application is blocked): the kernel ends the transaction
    held.goxDone = 'failed';
    return ST.CARDPROBLEMS;
  }
  const atc = (sim.atc.get(c.pan) ?? 0) + 1;
  sim.atc.set(c.pan, atc);
  const offline = held.via === 'contactless' && c.failure === 'ctls-offline-approval';
  // the card's first GENERATE AC answers AAC: declined offline (§3.7.3 PP_GOXRES "1xxxxx"), no FCX follows
  const declined = sim.deck.declineOffline;
  const un = unpredictable();
  const cid = declined ? '00' : offline ? '40' : '80';
  const objects = transactionObjects({
    card: c,
    record,
    amount,
    cashback,
    transactionType: i.transactionType,
    date: held.date,
    atc,
    un,
    tvr: cvm === 'online' ? '0000048000' : '0000008000',
    cvmResults: chipCvmResults ?? (cvm === 'online' ? '420300' : cvm === 'device' ? '1F0302' : '3F0000'),
    cid,
    ac: cryptogram(c, declined ? 'AAC' : offline ? 'TC' : 'ARQC', amount, atc, un),
  });
  for (const [tag, value] of terminal) objects.set(tag, value);
  LAST.set(sim, { objects, record });
  held.goxDone = declined ? 'failed' : offline ? 'offline' : 'online';
  return {
    decision: declined ? '1' : offline ? '0' : '2',
    cvm,
    ...(pinBlock ? { pinBlock } : {}),
    tags: answerTags(objects, i.tagList),
  };
}

/**
 * FCX (§3.7.4, §6.9.4): the card's second decision. Host approved (ARC given): the card approves
 * (TC), unless the deck says it declines after an approval; host declined or no communication:
 * the card declines (AAC). Issuer scripts sent in SPE_EMVDATA come back as results "20" + script id.
 */
export const fcx: SimHandler = (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const held = sim.held;
  if (!held || (held.goxDone !== 'online' && held.goxDone !== 'offline') || held.fcxDone || !LAST.get(sim))
    return fail('FCX', ST.INVCALL);
  const p = readParams(cmd);
  const opt = str(p.get('SPE_FCXOPT'));
  if (!opt || !/^[012]/.test(opt)) return fail('FCX', opt ? ST.INVPARM : ST.MANDAT);
  const arc = str(p.get('SPE_ARC'));
  if ((opt[0] === '0' || opt[0] === '1') && !arc) return fail('FCX', ST.MANDAT);
  const r = chipFinish(ctx, {
    outcome: opt[0] as '0' | '1' | '2',
    arc,
    hostData: bin(p.get('SPE_EMVDATA')),
    tagList: bin(p.get('SPE_TAGLIST')),
  });
  if (typeof r === 'number') return fail('FCX', r);
  return answer('FCX', [
    ['PP_FCXRES', r.approve ? '000' : '100'],
    ['PP_EMVDATA', r.tags],
    ['PP_ISRESULTS', r.scripts.length ? Buffer.from(r.scripts.map((id) => `20${id}`).join(''), 'hex') : undefined],
  ]);
};

/**
 * The card's second decision (FCX and the classic FNC): outcome "0" host approved (the card
 * approves with a TC unless the deck says otherwise), "1" host declined, "2" no communication (AAC).
 * Returns a status (number) when the command must fail.
 */
export function chipFinish(
  ctx: SimContext,
  i: {
    outcome: '0' | '1' | '2';
    arc: string | undefined;
    hostData: Uint8Array | undefined;
    tagList: Uint8Array | undefined;
  },
): { approve: boolean; tags: Uint8Array | undefined; scripts: string[] } | number {
  const sim = cardSim(ctx.state);
  const held = sim.held!;
  const last = LAST.get(sim)!;
  if (i.hostData && i.hostData.length > 0) {
    try {
      decodeTlv(i.hostData);
    } catch {
      return ST.INVPARM;
    }
  }
  held.fcxDone = true;
  if (held.via === 'chip' && sim.deck.removeEarly === 'before-fcx') {
    // the card left the reader before the terminal finished: the pinpad cannot reach it
    held.inserted = false;
    return ST.ERRCARD;
  }
  const approve = i.outcome === '0' && !sim.deck.declineAfterApproval;
  const objects = new Map(last.objects);
  const atc = Number.parseInt(objects.get('9F36') ?? '1', 16);
  objects.set('9F27', approve ? '40' : '00');
  objects.set('9F26', cryptogram(held.card, approve ? 'TC' : 'AAC', held.amount, atc, objects.get('9F37') ?? ''));
  if (i.arc) objects.set('8A', Buffer.from(i.arc, 'latin1').toString('hex').toUpperCase());
  if (i.outcome === '2') objects.set('8A', Buffer.from('Z3', 'latin1').toString('hex').toUpperCase());
  const scripts = issuerScripts(i.hostData);
  if (scripts.length) objects.set('9F5B', scripts.map((id) => `20${id}`).join(''));
  return { approve, tags: answerTags(objects, i.tagList), scripts };
}

import { LAYOUTS } from '../spec/layouts.js';
import type { SimCommand, SimContext, SimHandler } from '../engine.js';
import { writeAnswer } from '../wire/command.js';
import { isLayoutFault, readLayout } from '../wire/layout.js';
import { chipFinish, chipVerify } from './chip.js';
import { chipOf } from './deck.js';
import { transactionObjects, unpredictable } from './emv.js';
import { fail, pause, ST, waitNothing } from './kit.js';
import { effectiveVia, track1Of } from './read.js';
import { atcExhausted, cardSim, type CardSim, type HeldCard } from './state.js';

/**
 * The classic ("obsolete") card commands as a pinpad answers them, from ABECS 2.12 §3.6 and §3.5.1,
 * §3.3.3 (guilhermecabral05/abecs-rust protocolo_abecs_2_12.md, kept in 2.20 for legacy terminals,
 * §3.1.2): GCR, GOC, FNC, GTS, CKE. Fixed fields read strictly by the pinpad's own reader (a
 * field out of its format or a block of the wrong size answers ST_INVPARM); the card processing is
 * the one GCX/GOX/FCX use. GCR gives the tracks and PAN in clear, as the specification has it: the
 * terminal must encrypt them (EBX) — the driver's rule, not the pinpad's.
 */

const ST_MCDATAERR = 41; // §3.1.1 "ST_MCDATAERR 041 Erro de leitura do cartão magnético" (60 is ST_DUMBCARD)

/** §3.6.1 GCR command: the fixed head (40 characters), then GCR_QTDAPP × A4, then GCR_CTLSON (optional N1). */
const GCR_HEAD = LAYOUTS.GCR_HEAD;

interface GcrAsk {
  acquirer: string;
  appType: string;
  amount: number;
  date: string;
  tableVersion: string;
  ids: string[];
  contactless: boolean;
}

/** The request kept after ST_TABVERDIF, for "GCR" sent again without parameters (§3.6.1). */
const PENDING = new WeakMap<CardSim, GcrAsk>();
/** GCR_ACQIDX of the held card (GOC_ACQPR's size depends on it, §3.6.3). */
const ACQ = new WeakMap<HeldCard, string>();

const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

function readGcr(block: Uint8Array): GcrAsk | undefined {
  if (block.length < 40) return undefined;
  const h = readLayout(GCR_HEAD, block.subarray(0, 40));
  if (isLayoutFault(h)) return undefined;
  const n = Number(h.GCR_QTDAPP);
  const rest = block.length - 40;
  if (rest !== 4 * n && rest !== 4 * n + 1) return undefined;
  if (n > 0 && h.GCR_APPTYPREQ !== '00') return undefined;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = text(block.subarray(40 + 4 * i, 44 + 4 * i));
    if (!/^\d{2}[\x20-\x7e]{2}$/.test(id)) return undefined;
    ids.push(id);
  }
  const ctls = rest === 4 * n + 1 ? text(block.subarray(block.length - 1)) : '1';
  if (ctls !== '0' && ctls !== '1') return undefined;
  return {
    acquirer: String(h.GCR_ACQIDXREQ),
    appType: String(h.GCR_APPTYPREQ),
    amount: Number(h.GCR_AMOUNT),
    date: String(h.GCR_DATE),
    tableVersion: String(h.GCR_TABVER),
    ids,
    contactless: ctls === '1',
  };
}

const pad = (s: string, n: number): string => s.padEnd(n, ' ').slice(0, n);
const zeros = (n: number): string => '0'.repeat(n);
const len = (s: string, n: number): string => String(s.length).padStart(n, '0');

/** GCR_ACQRD (§3.6.1): network 01 gets the AID, label and preferred name (66); 02 the AUC (10); others nothing. */
function acquirerData(acq: string, aid: string, label: string, auc: string | undefined): string {
  if (acq === '01')
    return `${String(aid.length / 2).padStart(2, '0')}${aid.padEnd(32, 'F')}${pad(label, 16)}${pad(label, 16)}`;
  if (acq === '02') return `9F0702${(auc ?? '0000').padStart(4, '0').slice(-4)}`;
  return '';
}

/** GCR (§3.6.1, blocking): the presented card; chip cards are selected against the AID tables of GCR_ACQIDXREQ. */
export const gcr: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  let ask: GcrAsk | undefined;
  const again = cmd.blocks.length === 0;
  if (again) ask = PENDING.get(sim);
  else if (cmd.blocks.length === 1) ask = readGcr(cmd.blocks[0]!);
  if (!ask) return fail('GCR', again ? ST.INVCALL : ST.INVPARM);
  PENDING.delete(sim);
  const contactlessOn = ask.contactless && ctx.profile.contactless;
  const msg = contactlessOn ? 'APROXIME, INSIRA\rOU PASSE CARTAO' : 'INSIRA OU PASSE\rO CARTAO';
  sim.held = undefined;
  ctx.state.display = msg.split('\r');
  ctx.notify(msg);
  const pres = sim.deck.presentation;
  // GCR has no timeout of its own: it waits for the card, CANCEL or the terminal's CAN
  if (pres.kind === 'nothing')
    return fail('GCR', (await waitNothing(ctx, undefined)) === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
  if (await pause(sim.deck.delayMs, ctx)) return fail('GCR', ST.CANCEL);
  if (pres.kind === 'cancel') return fail('GCR', ST.CANCEL);
  const c = pres.card;
  const via = effectiveVia(c, pres.via, contactlessOn);
  const chip = chipOf(c);
  if (via !== 'stripe') {
    if (c.failure === 'blocked') return fail('GCR', ST.CARDBLOCKED);
    if (atcExhausted(sim, c.pan)) return fail('GCR', ST.CARDINVALIDAT);
    if (via === 'chip' && c.failure === 'chip-fallback') {
      sim.lastIccStatus = '1';
      sim.deck.presentation = { kind: 'card', card: c, via: 'stripe' };
      return fail('GCR', ST.ERRFALLBACK);
    }
    if (via === 'chip' && c.failure === 'chip-problems') return fail('GCR', ST.CARDPROBLEMS);
    if (via === 'contactless' && c.failure === 'ctls-see-phone' && !sim.shownOnce.has(c.pan)) {
      sim.shownOnce.add(c.pan);
      return fail('GCR', ST.CTLSEXTCVM);
    }
  }
  // §6.8.1.2: only an inserted chip has GCR_TABVER checked (not a swipe, not contactless: §6.8.1.3, §7.4);
  // the request is kept for "GCR" alone (§6.8.2), the card stays in the reader
  if (via === 'chip' && !again && (sim.tables.version(ask.acquirer) ?? zeros(10)) !== ask.tableVersion) {
    PENDING.set(sim, ask);
    return fail('GCR', ST.TABVERDIF);
  }
  let aidTables: HeldCard['aidTables'] = [];
  if (via !== 'stripe') {
    if (!chip) return fail('GCR', via === 'chip' ? ST.CARDAPPNAV : ST.CTLSAPPNAV);
    const a = ask;
    aidTables = sim.tables
      .aidRecords(chip.aid)
      .filter((r) =>
        a.appType === '00'
          ? a.ids.includes(r.acquirer + r.index)
          : (a.acquirer === '00' || r.acquirer === a.acquirer) &&
            (a.appType === '99' || r.fields.T1_APPTYPE === a.appType),
      )
      .filter((r) => via === 'chip' || (r.fields.T1_CTLSMODE ?? '0') !== '0')
      .slice(0, 1)
      .map((r) => ({ acquirer: r.acquirer, index: r.index, applicationType: r.fields.T1_APPTYPE ?? '00' }));
    if (aidTables.length === 0) return fail('GCR', via === 'chip' ? ST.CARDAPPNAV : ST.CTLSAPPNAV);
  }
  const held: HeldCard = {
    card: c,
    via,
    aidTables,
    amount: ask.amount,
    cashback: 0,
    transactionType: 0,
    date: ask.date,
    panKnown: true,
    gtkDone: false,
    goxDone: 'no',
    fcxDone: false,
    inserted: via === 'chip',
  };
  sim.held = held;
  const t = aidTables[0];
  ACQ.set(held, t?.acquirer ?? '00');
  const stripe = via === 'stripe' || via === 'contactless-stripe';
  const icc = via === 'stripe' ? sim.lastIccStatus : '0';
  if (via === 'stripe') sim.lastIccStatus = '0';
  const objects = stripe
    ? undefined
    : transactionObjects({
        card: c,
        record: undefined,
        amount: ask.amount,
        cashback: 0,
        transactionType: 0,
        date: ask.date,
        atc: sim.atc.get(c.pan) ?? 1,
        un: unpredictable(),
      });
  const t1 = via === 'stripe' ? track1Of(c) : '';
  const acqData = t ? acquirerData(t.acquirer, chip!.aid, chip!.label, chip!.emv['9F07']) : '';
  const out =
    (via === 'chip' ? '03' : via === 'contactless' ? '06' : via === 'contactless-stripe' ? '05' : '00') +
    icc +
    (t?.applicationType ?? '00') +
    (t?.acquirer ?? '00') +
    pad(t?.index ?? '00', 2) +
    len(t1, 2) +
    pad(t1, 76) +
    len(c.track2, 2) +
    pad(c.track2, 37) +
    '000' +
    pad('', 104) +
    len(c.pan, 2) +
    pad(c.pan, 19) +
    (stripe ? '00' : c.panSequenceNumber) +
    pad(chip && !stripe ? chip.label : '', 16) +
    c.serviceCode +
    pad(via === 'chip' ? c.cardholderName : '', 26) +
    (stripe ? zeros(6) : (objects?.get('5F24') ?? zeros(6))) +
    zeros(29) +
    (stripe ? '000' : (chip!.emv['5F28'] ?? '0000').slice(-3)) +
    len(acqData, 3) +
    acqData;
  return writeAnswer('GCR', 0, [Buffer.from(out, 'latin1')]);
};

/** §3.6.3 GOC command block 1 (86 characters and GOC_ACQPR). */
const GOC_HEAD = LAYOUTS.GOC_HEAD;

/** A tag-list block "LLL" + hex (GOC_TAGS1LEN/GOC_TAGS1, §3.6.3; FNC_TAGSLEN/FNC_TAGS, §3.6.4): bytes, or undefined when malformed. */
function tagBlock(b: Uint8Array | undefined, max = 256): Uint8Array | undefined {
  if (!b || b.length < 3) return undefined;
  const s = text(b);
  const n = s.slice(0, 3);
  if (!/^\d{3}$/.test(n) || Number(n) > max || s.length !== 3 + 2 * Number(n) || !/^[0-9A-Fa-f]*$/.test(s.slice(3)))
    return undefined;
  return Buffer.from(s.slice(3), 'hex');
}

/** GOC (§3.6.3, blocking at the PIN): risk management and cardholder verification after a chip GCR. */
export const goc: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const held = sim.held;
  if (!held || !ACQ.has(held) || held.via === 'stripe' || held.via === 'contactless-stripe' || held.goxDone !== 'no')
    return fail('GOC', ST.INVCALL);
  if (cmd.blocks.length !== 3) return fail('GOC', ST.INVPARM);
  const b1 = cmd.blocks[0]!;
  if (b1.length < 86) return fail('GOC', ST.INVPARM);
  const f = readLayout(GOC_HEAD, b1.subarray(0, 86));
  const acq = ACQ.get(held)!;
  const acqLen = acq === '01' ? 3 : acq === '02' ? 32 : 0;
  if (isLayoutFault(f) || Number(f.GOC_ACQPRLEN) !== acqLen || b1.length !== 86 + acqLen)
    return fail('GOC', ST.INVPARM);
  if (
    !/^[01]$/.test(String(f.GOC_EXCLIST)) ||
    !/^[01]$/.test(String(f.GOC_CONNECT)) ||
    !/^[01]$/.test(String(f.GOC_RISKMAN))
  )
    return fail('GOC', ST.INVPARM);
  const tags1 = tagBlock(cmd.blocks[1]);
  const tags2 = tagBlock(cmd.blocks[2]);
  if (!tags1 || !tags2) return fail('GOC', ST.INVPARM);
  const acqPr = text(b1.subarray(86));
  const r = await chipVerify(ctx, {
    acquirer: held.aidTables[0]!.acquirer,
    pinMethod: String(f.GOC_METHOD),
    keySlot: Number(f.GOC_KEYIDX),
    amount: Number(f.GOC_AMOUNT),
    cashback: Number(f.GOC_CASHBACK),
    transactionType: acq === '01' ? Number(acqPr.slice(0, 2)) : 0,
    terminal: new Map(),
    message: acq === '02' && acqPr.trim() ? acqPr : 'DIGITE A SENHA',
    timeoutS: 60,
    tagList: Buffer.concat([tags1, tags2]),
  });
  if (typeof r === 'number') return fail('GOC', r);
  const emv = r.tags ? Buffer.from(r.tags).toString('hex').toUpperCase() : '';
  const out =
    r.decision +
    (r.cvm === 'signature' ? '1' : '0') +
    '0' + // GOC_PINOFF: this pinpad verifies no PIN offline
    '0' +
    '0' +
    (r.pinBlock ? '1' : '0') +
    (r.pinBlock?.block ?? zeros(16)) +
    (r.pinBlock?.ksn ?? zeros(20)) +
    String(emv.length / 2).padStart(3, '0') +
    emv +
    '000';
  return writeAnswer('GOC', 0, [Buffer.from(out, 'latin1')]);
};

/** §3.6.4 FNC command block 1: FNC_COMMST N1, FNC_ISSMODE N1, FNC_ARC A2, FNC_ISSDATLEN N3, FNC_ISSDAT H.., FNC_ACQPRLEN N3. */
export const fnc: SimHandler = (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const held = sim.held;
  if (!held || !ACQ.has(held) || (held.goxDone !== 'online' && held.goxDone !== 'offline') || held.fcxDone)
    return fail('FNC', ST.INVCALL);
  if (cmd.blocks.length !== 2) return fail('FNC', ST.INVPARM);
  const s = text(cmd.blocks[0]!);
  const m = /^([019])0([\x20-\x7e]{2})(\d{3})([0-9A-Fa-f]*)000$/.exec(s);
  if (!m || m[4]!.length !== 2 * Number(m[3]) || Number(m[3]) > 256) return fail('FNC', ST.INVPARM);
  const tags = tagBlock(cmd.blocks[1]);
  if (!tags) return fail('FNC', ST.INVPARM);
  // "1": no communication (the other fields zeroed); "9": approved with an ARC other than "00"
  const outcome = m[1] === '1' ? '2' : m[2] === '00' || m[1] === '9' ? '0' : '1';
  const r = chipFinish(ctx, {
    outcome,
    arc: m[1] === '1' ? undefined : m[2],
    hostData: Buffer.from(m[4]!, 'hex'),
    tagList: tags,
  });
  if (typeof r === 'number') return fail('FNC', r);
  const emv = r.tags ? Buffer.from(r.tags).toString('hex').toUpperCase() : '';
  const isr = r.scripts.map((id) => `20${id}`).join('');
  const decision = r.approve ? '0' : outcome === '0' ? '1' : '2';
  const out =
    decision + String(emv.length / 2).padStart(3, '0') + emv + String(isr.length / 2).padStart(2, '0') + isr + '000';
  return writeAnswer('FNC', 0, [Buffer.from(out, 'latin1')]);
};

/** GTS (§3.5.1): the version of a network's tables; zeros when none (or no general version for "00"). */
export const gts: SimHandler = (cmd: SimCommand, ctx: SimContext) => {
  const b = cmd.blocks[0];
  if (cmd.blocks.length !== 1 || !b || !/^\d{2}$/.test(text(b))) return fail('GTS', ST.INVPARM);
  const v = cardSim(ctx.state).tables.version(text(b)) ?? zeros(10);
  return writeAnswer('GTS', 0, [Buffer.from(pad(v, 10), 'latin1')]);
};

/**
 * CKE (§3.3.3, blocking): waits for a key (CANCEL → "0" + "13"), a swiped card (tracks in clear,
 * fixed 225), a chip inserted ("2" + "1") or a contactless card ("3" + "1"), per the deck.
 */
export const cke: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const b = cmd.blocks[0];
  const s = b ? text(b) : '';
  if (cmd.blocks.length !== 1 || !/^[01][01][012][01]?$/.test(s)) return fail('CKE', ST.INVPARM);
  const [key, mag, icc, ctls = '0'] = [...s];
  if (icc === '2') {
    if (!sim.held?.inserted) return writeAnswer('CKE', 0, [Buffer.from('20', 'latin1')]);
    if (await pause(sim.deck.delayMs, ctx)) return fail('CKE', ST.CANCEL);
    sim.held.inserted = false;
    return writeAnswer('CKE', 0, [Buffer.from('20', 'latin1')]);
  }
  const pres = sim.deck.presentation;
  if (pres.kind === 'nothing')
    return fail('CKE', (await waitNothing(ctx, undefined)) === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
  if (await pause(sim.deck.delayMs, ctx)) return fail('CKE', ST.CANCEL);
  if (pres.kind === 'cancel')
    return key === '1' ? writeAnswer('CKE', 0, [Buffer.from('013', 'latin1')]) : fail('CKE', ST.CANCEL);
  const c = pres.card;
  if (pres.via === 'stripe' && mag === '1') {
    if (!c.track2) return fail('CKE', ST_MCDATAERR);
    const t1 = track1Of(c);
    const out = '1' + len(t1, 2) + pad(t1, 76) + len(c.track2, 2) + pad(c.track2, 37) + '000' + pad('', 104);
    return writeAnswer('CKE', 0, [Buffer.from(out, 'latin1')]);
  }
  if (pres.via === 'chip' && icc === '1') return writeAnswer('CKE', 0, [Buffer.from('21', 'latin1')]);
  if ((pres.via === 'contactless' || pres.via === 'contactless-stripe') && ctls === '1')
    return writeAnswer('CKE', 0, [Buffer.from('31', 'latin1')]);
  return fail('CKE', (await waitNothing(ctx, undefined)) === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
};

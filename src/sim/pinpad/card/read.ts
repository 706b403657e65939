import { LAYOUTS } from '../spec/layouts.js';
import { writeAnswer as encodeResponse } from '../wire/command.js';
import { isLayoutFault, readLayout } from '../wire/layout.js';
import { maskPan, partialTrack1 as incompleteTrack1, partialTrack2 as incompleteTrack2 } from './tracks.js';
import { cardInterfaces, type TestCard } from '../../../../tables/test-cards.js';
import type { SimHandler } from '../engine.js';
import { chipOf, type Via } from './deck.js';
import { answerTags, terminalOverrides, transactionObjects, unpredictable } from './emv.js';
import { packTrack, packTrack1 } from './keys.js';
import { answer, bin, fail, hasKey, num, pause, readParams, ST, str, waitNothing } from './kit.js';
import { enterPin } from './pin-entry.js';
import { atcExhausted, cardSim, type CardSim, type HeldCard } from './state.js';

/** Track 1 of a test card: format B, PAN, name, YYMM, service code, discretionary data. */
export function track1Of(c: TestCard): string {
  return `B${c.pan}^${c.cardholderName.padEnd(26, ' ').slice(0, 26)}^${c.expiry}${c.serviceCode}0000000000`;
}

const mask = maskPan;

/** What the reader sees when the terminal did not enable contactless: the customer inserts (or swipes) instead. */
export function effectiveVia(c: TestCard, via: Via, contactlessOn: boolean): Via {
  if ((via !== 'contactless' && via !== 'contactless-stripe') || contactlessOn) return via;
  const ifs = cardInterfaces(c);
  return ifs.includes('chip') ? 'chip' : 'stripe';
}

function card2(sim: CardSim): Via | undefined {
  return sim.deck.presentation.kind === 'card' ? sim.deck.presentation.via : undefined;
}

/** GCX (§3.7.1, §6.9.1, blocking): the presented card per the deck, masked with SPE_PANMASK. */
export const gcx: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const p = readParams(cmd);
  const date = str(p.get('SPE_TRNDATE'));
  const time = str(p.get('SPE_TRNTIME'));
  if (!date || !time) return fail('GCX', ST.MANDAT);
  // SPE_EMVDATA: terminal data over the tables' (a kiosk's 9F35, 9F33), as GOX takes it too
  const terminal = terminalOverrides(bin(p.get('SPE_EMVDATA')));
  if (!terminal) return fail('GCX', ST.INVPARM);
  const opt = str(p.get('SPE_GCXOPT')) ?? '00000';
  const contactlessOn = opt[0] === '1' && ctx.profile.contactless;
  const timeoutS = num(p.get('SPE_TIMEOUT'));
  const msg =
    str(p.get('SPE_DSPMSG')) ?? (contactlessOn ? 'APROXIME, INSIRA\rOU PASSE CARTAO' : 'INSIRA OU PASSE\rO CARTAO');
  sim.held = undefined;
  ctx.state.display = msg.split('\r').slice(0, 2);
  ctx.notify(msg);
  const pres = sim.deck.presentation;
  if (pres.kind === 'nothing') {
    const r = await waitNothing(ctx, timeoutS);
    return fail('GCX', r === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
  }
  if (await pause(sim.deck.delayMs, ctx)) return fail('GCX', ST.CANCEL);
  if (pres.kind === 'cancel') return fail('GCX', ST.CANCEL);
  const c = pres.card;
  const via = effectiveVia(c, pres.via, contactlessOn);
  const chip = chipOf(c);
  const trnType = bin(p.get('SPE_TRNTYPE'))?.[0] ?? 0;
  const amount = num(p.get('SPE_AMOUNT')) ?? 0;
  const cashback = num(p.get('SPE_CASHBACK')) ?? 0;
  const panMask = str(p.get('SPE_PANMASK'));

  // the card's failures (§3.7.1 statuses)
  if (via !== 'stripe') {
    if (c.failure === 'blocked') return fail('GCX', ST.CARDBLOCKED);
    if (atcExhausted(sim, c.pan)) return fail('GCX', ST.CARDINVALIDAT);
    if (via === 'chip' && c.failure === 'chip-fallback') {
      sim.lastIccStatus = '1';
      // the customer then swipes the same card (the terminal runs GCX again)
      sim.deck.presentation = { kind: 'card', card: c, via: 'stripe' };
      return fail('GCX', ST.ERRFALLBACK);
    }
    if (via === 'chip' && c.failure === 'chip-problems') return fail('GCX', ST.CARDPROBLEMS);
    if (via === 'contactless' && c.failure === 'ctls-see-phone' && !sim.shownOnce.has(c.pan)) {
      sim.shownOnce.add(c.pan);
      return fail('GCX', ST.CTLSEXTCVM);
    }
  }

  let aidTables: HeldCard['aidTables'] = [];
  if (via !== 'stripe') {
    if (!chip) return fail('GCX', via === 'chip' ? ST.CARDAPPNAV : ST.CTLSAPPNAV);
    const acq = str(p.get('SPE_ACQREF'));
    const aidList = str(p.get('SPE_AIDLIST'));
    const appTypes = str(p.get('SPE_APPTYPE'));
    const allowed = aidList ? new Set(aidList.match(/.{4}/g) ?? []) : undefined;
    aidTables = sim.tables
      .aidRecords(chip.aid)
      .filter((r) =>
        allowed
          ? allowed.has(r.acquirer + r.index)
          : (!acq || r.acquirer === acq) &&
            (!appTypes || (appTypes.match(/.{2}/g) ?? ([] as string[])).includes(r.fields.T1_APPTYPE ?? '')),
      )
      .filter((r) => via === 'chip' || (r.fields.T1_CTLSMODE ?? '0') !== '0')
      .map((r) => ({ acquirer: r.acquirer, index: r.index, applicationType: r.fields.T1_APPTYPE ?? '00' }));
    if (aidTables.length === 0) return fail('GCX', via === 'chip' ? ST.CARDAPPNAV : ST.CTLSAPPNAV);
  }
  sim.held = {
    card: c,
    via,
    aidTables,
    amount,
    cashback,
    transactionType: trnType,
    date,
    panKnown: true,
    gtkDone: false,
    goxDone: 'no',
    fcxDone: false,
    inserted: via === 'chip',
  };
  const atc = sim.atc.get(c.pan) ?? 1;
  const objects = transactionObjects({
    card: c,
    record: undefined,
    amount,
    cashback,
    transactionType: trnType,
    date,
    atc,
    un: unpredictable(),
  });
  for (const [tag, value] of terminal) objects.set(tag, value);
  const tags = answerTags(objects, bin(p.get('SPE_TAGLIST')));
  if (via === 'contactless-stripe') {
    // a contactless card in magnetic-stripe mode: track data as from a swipe, through the AID tables (§3.7.1 card type 05)
    return answer('GCX', [
      ['PP_CARDTYPE', '05'],
      ['PP_AIDTABINFO', aidTables.map((a) => a.acquirer + a.index + a.applicationType).join('')],
      ['PP_TRK2INC', mask(incompleteTrack2(c.track2), panMask)],
      ['PP_LABEL', chip!.label],
    ]);
  }
  if (via === 'stripe') {
    const icc = sim.lastIccStatus;
    sim.lastIccStatus = '0';
    return answer('GCX', [
      ['PP_CARDTYPE', '00'],
      ['PP_ICCSTAT', icc],
      ['PP_TRK1INC', mask(incompleteTrack1(track1Of(c)), panMask)],
      ['PP_TRK2INC', mask(incompleteTrack2(c.track2), panMask)],
    ]);
  }
  return answer('GCX', [
    ['PP_CARDTYPE', via === 'chip' ? '03' : '06'],
    ['PP_AIDTABINFO', aidTables.map((a) => a.acquirer + a.index + a.applicationType).join('')],
    ['PP_PAN', Buffer.from(mask(c.pan, panMask), 'latin1')],
    ['PP_PANSEQNO', c.panSequenceNumber],
    ['PP_CHNAME', via === 'chip' ? c.cardholderName : undefined],
    ['PP_LABEL', chip!.label],
    ['PP_ISSCNTRY', chip!.emv['5F28'] ? chip!.emv['5F28'].slice(-3) : undefined],
    ['PP_CARDEXP', objects.get('5F24')],
    ['PP_EMVDATA', tags],
    ['PP_DEVTYPE', via === 'contactless' ? (chip!.deviceType ?? '00') : undefined],
  ]);
};

/** GTK (§3.3.12, §6.5.12): once per card read; method 5x/DUKPT data key; erases the PAN it held. */
export const gtk: SimHandler = (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const held = sim.held;
  if (!held || held.gtkDone) return fail('GTK', ST.INVCALL);
  const p = readParams(cmd);
  const method = str(p.get('SPE_MTHDDAT'));
  const flags = str(p.get('SPE_TRACKS')) ?? '1111';
  if (method === undefined) return fail('GTK', ST.INVPARM); // tracks in clear: this pinpad refuses them
  if (method !== '50' && method !== '51') return fail('GTK', ST.ERRKEY); // no MK/WK data keys; no RSA here
  const slot = num(p.get('SPE_KEYIDX'));
  if (slot === undefined) return fail('GTK', ST.MANDAT);
  if (!hasKey(ctx, 'dukptData', slot)) return fail('GTK', ST.ERRKEY);
  if (p.get('SPE_OPNDIG') !== undefined && num(p.get('SPE_OPNDIG')) !== 0) return fail('GTK', ST.INVPARM); // open digits: not offered
  const iv = bin(p.get('SPE_IVCBC')) ?? new Uint8Array(8);
  const c = held.card;
  const want = {
    pan: flags[0] === '1' && held.via !== 'stripe',
    t1: flags[1] === '1' && (held.via === 'stripe' || held.via === 'contactless-stripe'),
    t2: flags[2] === '1',
  };
  const clear: Buffer[] = [];
  if (want.pan) clear.push(packTrack(c.pan));
  if (want.t1) clear.push(packTrack1(track1Of(c)));
  if (want.t2) clear.push(packTrack(c.track2));
  // §6.3.4.2: one KSN for every field in ECB, a KSN of its own per field in CBC
  const enc = sim.dukpt.encryptFields(clear, iv, method === '51' ? 'cbc' : 'ecb');
  for (const b of clear) b.fill(0);
  held.gtkDone = true;
  held.panKnown = false;
  let i = 0;
  const data: [string, Uint8Array | undefined][] = [];
  const next = (d: string, k: string): void => {
    const e = enc[i++]!;
    data.push([d, e.out], [k, Buffer.from(e.ksn, 'hex')]);
  };
  if (want.pan) next('PP_ENCPAN', 'PP_ENCPANKSN');
  if (want.t1) next('PP_TRACK1', 'PP_TRK1KSN');
  if (want.t2) next('PP_TRACK2', 'PP_TRK2KSN');
  return answer('GTK', data);
};

/** GPN (§3.3.11, §6.5.11, blocking): with PANLEN 00 the PAN held since GCX/CEX, refused after GTK (ST_INVCALL). */
export const gpn: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const block = cmd.blocks[0];
  if (!block) return fail('GPN', ST.INVPARM);
  const f = readLayout(LAYOUTS.GPN_REQUEST, block);
  if (isLayoutFault(f) || cmd.blocks.length !== 1) return fail('GPN', ST.INVPARM);
  const min = Number(f.GPN_MIN1);
  const max = Number(f.GPN_MAX1);
  if (f.GPN_ENTRIES !== '1' || min < 4 || max < min) return fail('GPN', ST.INVPARM);
  if (f.GPN_METHOD !== '3') return fail('GPN', ST.ERRKEY);
  if (!hasKey(ctx, 'dukptPin', Number(f.GPN_KEYIDX))) return fail('GPN', ST.ERRKEY);
  let pan: string;
  let rightPin = '';
  if (f.GPN_PANLEN === '00') {
    const held = sim.held;
    if (!held?.panKnown) return fail('GPN', ST.INVCALL);
    pan = held.card.pan;
    rightPin = held.card.pin;
  } else {
    pan = String(f.GPN_PAN).slice(0, Number(f.GPN_PANLEN));
    rightPin =
      sim.deck.presentation.kind === 'card' && sim.deck.presentation.card.pan === pan
        ? sim.deck.presentation.card.pin
        : '0000';
  }
  const r = await enterPin(
    ctx,
    sim,
    rightPin,
    undefined,
    String(f.GPN_MSG1).slice(0, 16) + '\r' + String(f.GPN_MSG1).slice(16),
  );
  ctx.state.display = ['', ''];
  if ('status' in r) return fail('GPN', r.status === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
  if (r.pin.length < min || r.pin.length > max) return fail('GPN', ST.INVPARM);
  const enc = sim.dukpt.encryptPin(r.pin, pan);
  return encodeResponse('GPN', 0, [Buffer.from(enc.block + enc.ksn, 'latin1')]);
};

/** EBX (§3.3.6, §6.5.6): a block under the DUKPT data key (method 50/51). */
export const ebx: SimHandler = (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const p = readParams(cmd);
  const data = bin(p.get('SPE_DATAIN'));
  const method = str(p.get('SPE_MTHDDAT'));
  const slot = num(p.get('SPE_KEYIDX'));
  if (!data || method === undefined || slot === undefined) return fail('EBX', ST.MANDAT);
  if (data.length === 0 || data.length % 8 !== 0 || data.length > 256) return fail('EBX', ST.INVPARM);
  if ((method !== '50' && method !== '51') || !hasKey(ctx, 'dukptData', slot)) return fail('EBX', ST.ERRKEY);
  const iv = bin(p.get('SPE_IVCBC')) ?? new Uint8Array(8);
  const { ksn, out } = sim.dukpt.encryptData([data], iv, method === '51' ? 'cbc' : 'ecb');
  return answer('EBX', [
    ['PP_DATAOUT', out[0]],
    ['PP_KSN', Buffer.from(ksn, 'hex')],
  ]);
};

/** CEX (§3.3.1, §6.5.1, blocking): the deck's card as a stripe, chip insertion/removal or contactless event. */
export const cex: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  const p = readParams(cmd);
  // §6.5.1: SPE_CEXOPT of any size; a character missing or out of its range counts as "0"
  const raw = str(p.get('SPE_CEXOPT')) ?? '';
  const ranges = ['01', '01', '012', '01'];
  const opt = ranges
    .map((r, i) => {
      const c = raw.charAt(i);
      return c !== '' && r.includes(c) ? c : '0';
    })
    .join('');
  const timeoutS = num(p.get('SPE_TIMEOUT'));
  const panMask = str(p.get('SPE_PANMASK'));
  if (opt[2] === '2') {
    if (!sim.held?.inserted) return answer('CEX', [['PP_EVENT', '91']]);
    if (await pause(sim.deck.delayMs, ctx)) return fail('CEX', ST.CANCEL);
    sim.held.inserted = false;
    return answer('CEX', [['PP_EVENT', '91']]);
  }
  const pres = sim.deck.presentation;
  if (pres.kind === 'nothing')
    return fail('CEX', (await waitNothing(ctx, timeoutS)) === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
  if (await pause(sim.deck.delayMs, ctx)) return fail('CEX', ST.CANCEL);
  if (pres.kind === 'cancel') return opt[0] === '1' ? answer('CEX', [['PP_EVENT', '13']]) : fail('CEX', ST.CANCEL);
  const via = card2(sim);
  const c = pres.card;
  if (via === 'stripe' && opt[1] === '1') {
    sim.held = {
      card: c,
      via: 'stripe',
      aidTables: [],
      amount: 0,
      cashback: 0,
      transactionType: 0,
      date: '',
      panKnown: true,
      gtkDone: false,
      goxDone: 'no',
      fcxDone: false,
      inserted: false,
    };
    return answer('CEX', [
      ['PP_EVENT', '90'],
      ['PP_TRK1INC', mask(incompleteTrack1(track1Of(c)), panMask)],
      ['PP_TRK2INC', mask(incompleteTrack2(c.track2), panMask)],
    ]);
  }
  if (via === 'chip' && opt[2] === '1') return answer('CEX', [['PP_EVENT', '92']]);
  if ((via === 'contactless' || via === 'contactless-stripe') && opt[3] === '1')
    return answer('CEX', [['PP_EVENT', '94']]);
  return fail('CEX', (await waitNothing(ctx, timeoutS)) === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
};

/** RMC (§3.3.14, §6.5.14, blocking while a card is in): waits for the customer to take the card. */
export const rmc: SimHandler = async (cmd, ctx) => {
  const sim = cardSim(ctx.state);
  // §6.5.14: RMC_MSG follows DSP's rules and robustness (§6.5.5): control characters become spaces,
  // a short message is padded, extra characters are ignored; "Situações de exceção: não há"
  const raw = Buffer.from(cmd.blocks[0] ?? new Uint8Array()).toString('latin1');
  const msg = [...raw]
    .map((c) => (c.charCodeAt(0) < 0x20 ? ' ' : c))
    .join('')
    .padEnd(32, ' ')
    .slice(0, 32);
  ctx.state.display = [msg.slice(0, 16).trimEnd(), msg.slice(16).trimEnd()];
  if (sim.held?.inserted) {
    ctx.notify('RETIRE O CARTAO');
    if (sim.deck.leavesCard)
      return fail('RMC', (await waitNothing(ctx, undefined)) === 'timeout' ? ST.TIMEOUT : ST.CANCEL);
    if (await pause(sim.deck.delayMs, ctx)) return fail('RMC', ST.CANCEL);
    sim.held.inserted = false;
  }
  sim.held = undefined;
  return encodeResponse('RMC', 0);
};

/** MNU (§3.3.13, §6.5.13, blocking): the customer picks by typing the option's number; CANCEL (\x18) cancels. */
export const mnu: SimHandler = async (cmd, ctx) => {
  const p = readParams(cmd);
  const options = p.all('SPE_MNUOPT').map((o) => str(o) ?? '');
  if (options.length === 0 || options.length > 20) return fail('MNU', options.length === 0 ? ST.MANDAT : ST.INVPARM);
  const title = str(p.get('SPE_DSPMSG'));
  ctx.state.display = [title ?? '', ...options];
  ctx.notify(title ?? options[0] ?? '');
  const timeoutS = num(p.get('SPE_TIMEOUT'));
  const keys = await Promise.race([ctx.nextKeys(), waitNothing(ctx, timeoutS)]);
  if (keys === 'aborted' || ctx.signal.aborted) return fail('MNU', ST.CANCEL);
  if (keys === 'timeout') return fail('MNU', ST.TIMEOUT);
  if (keys.startsWith('\x18')) return fail('MNU', ST.CANCEL);
  const n = Math.min(Math.max(Number.parseInt(keys, 10) || 1, 1), options.length);
  return answer('MNU', [['PP_VALUE', String(n).padStart(2, '0')]]);
};

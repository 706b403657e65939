import { createHash, randomBytes } from 'node:crypto';
import type { TestCard } from '../../../../tables/test-cards.js';
import { decodeTlv, encodeTlv, type TlvInput } from '../../../emv/index.js';
import type { TableRecord } from '../../../emv/index.js';
import { chipOf } from './deck.js';

/** Tags a pinpad never returns in PP_EMVDATA: track and PAN data (§3.7.1), cardholder name. */
export const WITHHELD_TAGS = new Set(['5A', '57', '56', '9F6B', '5F20', '9F0B', '99']);

/** Splits an SPE_TAGLIST into tags (EMV tag rules: a first byte xxx11111 continues, so does b8 of the next ones). */
export function splitTags(list: Uint8Array): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < list.length) {
    let j = i + 1;
    if ((list[i]! & 0x1f) === 0x1f) {
      while (j < list.length && list[j]! & 0x80) j++;
      j++;
    }
    out.push(
      Buffer.from(list.subarray(i, Math.min(j, list.length)))
        .toString('hex')
        .toUpperCase(),
    );
    i = j;
  }
  return out;
}

/** What the kernel knows during a transaction: the card's objects, the AID record's terminal data, the transaction. */
export function transactionObjects(o: {
  card: TestCard;
  record?: TableRecord | undefined;
  amount: number;
  cashback: number;
  transactionType: number;
  date: string;
  atc: number;
  un: string;
  tvr?: string;
  cvmResults?: string;
  cid?: string;
  ac?: string;
}): Map<string, string> {
  const chip = chipOf(o.card);
  const f = o.record?.fields ?? {};
  const m = new Map<string, string>(Object.entries(chip?.emv ?? {}));
  const set = (t: string, v: string | undefined): void => {
    if (v !== undefined && v !== '') m.set(t, v);
  };
  set('84', chip?.aid);
  set('4F', chip?.aid);
  set('50', chip ? Buffer.from(chip.label, 'latin1').toString('hex').toUpperCase() : undefined);
  set('5F24', `${o.card.expiry}${lastDay(o.card.expiry)}`);
  set('5F34', o.card.panSequenceNumber);
  set('9F1A', f.T1_TRMCNTRY ? `0${f.T1_TRMCNTRY}` : '0076');
  set('5F2A', f.T1_TRNCURR ? `0${f.T1_TRNCURR}` : '0986');
  set('9F33', f.T1_TRMCAPAB);
  set('9F35', f.T1_TRMTYP);
  set('9F09', f.T1_APPVER1);
  set('9F40', f.T1_ADDTRMCP);
  set('9A', o.date);
  set('9C', o.transactionType.toString(16).padStart(2, '0').toUpperCase());
  set('9F02', String(o.amount).padStart(12, '0'));
  set('9F03', String(o.cashback).padStart(12, '0'));
  set('9F36', o.atc.toString(16).padStart(4, '0').toUpperCase());
  set('9F37', o.un);
  set('95', o.tvr ?? '0000000000');
  set('9B', 'E800');
  set('9F34', o.cvmResults);
  set('9F27', o.cid);
  set('9F26', o.ac);
  set('9F1E', '5650503030303031'); // IFD serial "VPP00001"
  set('9F41', o.atc.toString().padStart(8, '0'));
  return m;
}

/** The last day of a YYMM month as DD. */
function lastDay(yymm: string): string {
  const y = 2000 + Number(yymm.slice(0, 2));
  const mth = Number(yymm.slice(2, 4));
  return String(new Date(Date.UTC(y, mth, 0)).getUTCDate()).padStart(2, '0');
}

/** A stand-in application cryptogram: 8 bytes bound to the card, the amount, the ATC and the unpredictable number. */
export function cryptogram(card: TestCard, kind: string, amount: number, atc: number, un: string): string {
  return createHash('sha256')
    .update(`${kind}|${card.pan}|${amount}|${atc}|${un}`)
    .digest('hex')
    .slice(0, 16)
    .toUpperCase();
}

/** A fresh unpredictable number (9F37). */
export function unpredictable(): string {
  return randomBytes(4).toString('hex').toUpperCase();
}

/** PP_EMVDATA: the asked tags the kernel knows, in the order asked; track and PAN tags never. */
export function answerTags(objects: ReadonlyMap<string, string>, list: Uint8Array | undefined): Uint8Array | undefined {
  if (!list) return undefined;
  const items: TlvInput[] = [];
  for (const t of splitTags(list)) {
    if (WITHHELD_TAGS.has(t)) continue;
    const v = objects.get(t);
    if (v !== undefined) items.push({ tag: t, value: v });
  }
  return items.length ? encodeTlv(items) : new Uint8Array();
}

/** Tags of host data (SPE_EMVDATA of FCX): 71/72 scripts and their 9F18 ids. */
export function issuerScripts(data: Uint8Array | undefined): string[] {
  if (!data || data.length === 0) return [];
  try {
    return decodeTlv(data)
      .filter((o) => o.tag === '71' || o.tag === '72')
      .map((o) => {
        const id = decodeTlv(o.value).find((c) => c.tag === '9F18');
        return id ? Buffer.from(id.value).toString('hex').toUpperCase().padStart(8, '0') : '00000000';
      });
  } catch {
    return [];
  }
}

/**
 * The terminal data a command's SPE_EMVDATA sets over the AID record's (GCX, GOX: e.g. a kiosk's
 * 9F35 and 9F33), as tag → hex; undefined when the field is not TLV.
 */
export function terminalOverrides(data: Uint8Array | undefined): Map<string, string> | undefined {
  const m = new Map<string, string>();
  if (!data || data.length === 0) return m;
  try {
    for (const o of decodeTlv(data)) m.set(o.tag, Buffer.from(o.value).toString('hex').toUpperCase());
  } catch {
    return undefined;
  }
  return m;
}

/** The cardholder verification a contact chip ends with. */
export type ChipCvm = 'online' | 'signature' | 'none';

/**
 * CVM list processing (EMV Book 3 §10.5, codes in Annex C3) over the card's 8E and the terminal
 * capabilities 9F33 (Book 4 Annex A2, byte 2: b7 enciphered PIN online, b6 signature, b4 no CVM):
 * the first rule whose condition holds and whose method the terminal supports; a rule that cannot
 * be done goes on to the next only when its b7 ("apply succeeding rule if this fails") is set.
 * Offline PIN is not modelled (the test cards verify online). `cvm` is also what goes in 9F34.
 */
export function chooseChipCvm(
  cvmList: string | undefined,
  capabilities: string | undefined,
  amount: number,
): { cvm: ChipCvm; results: string } {
  const caps =
    capabilities && /^[0-9A-Fa-f]{6}$/.test(capabilities) ? Number.parseInt(capabilities.slice(2, 4), 16) : 0xf0;
  if (!cvmList || !/^([0-9A-Fa-f]{2}){10,}$/.test(cvmList)) return { cvm: 'online', results: '420300' };
  const x = Number.parseInt(cvmList.slice(0, 8), 16);
  const y = Number.parseInt(cvmList.slice(8, 16), 16);
  const supported: Record<number, { bit: number; cvm: ChipCvm; result: string }> = {
    0x02: { bit: 0x40, cvm: 'online', result: '00' },
    0x1e: { bit: 0x20, cvm: 'signature', result: '00' },
    0x1f: { bit: 0x08, cvm: 'none', result: '02' },
  };
  for (let i = 16; i + 4 <= cvmList.length; i += 4) {
    const code = Number.parseInt(cvmList.slice(i, i + 2), 16);
    const cond = Number.parseInt(cvmList.slice(i + 2, i + 4), 16);
    const method = supported[code & 0x3f];
    const applies =
      cond === 0x00 ||
      cond === 0x02 ||
      (cond === 0x03 && method !== undefined && (caps & method.bit) !== 0) ||
      (cond === 0x06 && amount < x) ||
      (cond === 0x07 && amount > x) ||
      (cond === 0x08 && amount < y) ||
      (cond === 0x09 && amount > y);
    if (!applies) continue;
    if (method && (caps & method.bit) !== 0)
      return { cvm: method.cvm, results: `${cvmList.slice(i, i + 4)}${method.result}`.toUpperCase() };
    if (!(code & 0x40)) break;
  }
  return { cvm: 'none', results: '3F0001' };
}

import { GIX_DEFAULT, simId } from '../spec/ids.js';
import { ginAnswerLayout, LAYOUTS } from '../spec/layouts.js';
import type { SimHandler, SimState } from '../engine.js';
import { withCounter } from '../../../crypto/index.js';
import { readParams } from '../card/kit.js';
import { writeAnswer as encodeResponse } from '../wire/command.js';
import { writeField, type FieldValue } from '../wire/fields.js';
import { isLayoutFault, readLayout, writeLayout } from '../wire/layout.js';
import { packBlocks, writeRawDatum } from '../wire/params.js';
import { openWithSecureChannel } from '../secure/opn.js';
import type { VirtualPinpadProfile } from '../profile.js';
import { cardSim, tableVersionValue } from '../card/index.js';
import { str } from '../card/kit.js';

const ST_INVPARM = 11;

/** OPN (§3.2.1/§3.2.2/§6.4.1): always accepted; with key data, the secure channel (src/sim/pinpad/secure). */
export const opn: SimHandler = (cmd, ctx) => openWithSecureChannel(cmd, ctx);

/** CLO (§3.2.6/§6.4.5): leaves CLO_MSG on the display; inconsistent data is no error. */
export const clo: SimHandler = (cmd, ctx) => {
  const msg = Buffer.from(cmd.blocks[0] ?? new Uint8Array())
    .toString('latin1')
    .padEnd(32, ' ')
    .slice(0, 32);
  ctx.state.display = [msg.slice(0, 16).trimEnd(), msg.slice(16).trimEnd()];
  ctx.state.opened = false;
  ctx.state.session = {};
  return encodeResponse('CLO', 0);
};

/**
 * CLX (§3.2.7, §6.4.5): closes as CLO does (session key erased, card data dropped, answer in clear);
 * leaves SPE_MFNAME's image on the display when that file is loaded, SPE_DSPMSG otherwise.
 */
export const clx: SimHandler = (cmd, ctx) => {
  const p = readParams(cmd);
  const name = str(p.get('SPE_MFNAME'))?.trim().toUpperCase();
  const shown = name !== undefined && cardSim(ctx.state).media.files.has(name);
  const msg = (str(p.get('SPE_DSPMSG')) ?? '').split('\r');
  ctx.state.display = shown ? [`[image ${name}]`, ''] : [msg[0] ?? '', msg[1] ?? ''];
  ctx.state.opened = false;
  ctx.state.session = {};
  return encodeResponse('CLX', 0);
};

function ginValues(p: VirtualPinpadProfile, acqIdx: number): Record<string, FieldValue> {
  if (acqIdx === 0) {
    return {
      GIN_MNAME: p.manufacturer,
      GIN_MODEL: p.model,
      GIN_CTLSSUP: p.contactless ? 'C' : ' ',
      GIN_SOVER: p.firmware,
      GIN_SPECVER: p.specVersion,
      GIN_MANVER: p.managerVersion,
      GIN_SERNUM: p.serialNumber,
    };
  }
  const app = p.appVersion.slice(0, 13);
  if (acqIdx === 2)
    return {
      GIN_ACQNAM: 'Abecs',
      GIN_KRNLVER: p.kernelVersion,
      GIN_APPVERS: app,
      GIN_SPECVER: p.specVersion,
      GIN_RUF1: '',
      GIN_RUF2: '00',
    };
  if (acqIdx === 3) {
    return {
      GIN_ACQNAM: 'Abecs',
      GIN_KRNLVER: p.kernelVersion.slice(0, 4),
      GIN_CTLSVER: '1.0',
      GIN_MCTLSVER: '1.0',
      GIN_VCTLSVER: '1.0',
      GIN_APPVERS: app,
      GIN_SPECVER: p.specVersion,
      GIN_RUF3: '',
      GIN_DUKPT: p.keys.dukptPin[1] === '1' ? 'T' : ' ',
      GIN_RUF2: '00',
    };
  }
  return { GIN_ACQNAME: 'Abecs', GIN_APPVERS: app, GIN_SPECVER: p.specVersion, GIN_RUF1: '', GIN_RUF2: '00' };
}

/** GIN (§3.2.3): the layout for the acquirer index asked. */
export const gin: SimHandler = (cmd, ctx) => {
  const req = readLayout(LAYOUTS.GIN_REQUEST, cmd.blocks[0] ?? new Uint8Array());
  if (isLayoutFault(req) || cmd.blocks.length !== 1) return encodeResponse('GIN', ST_INVPARM);
  const acq = Number(req.GIN_ACQIDX);
  return encodeResponse('GIN', 0, [writeLayout(ginAnswerLayout(acq), ginValues(ctx.profile, acq))]);
};

function gixValue(p: VirtualPinpadProfile, id: number): FieldValue | undefined {
  const byName: Record<string, FieldValue> = {
    PP_SERNUM: p.serialNumber,
    PP_PARTNBR: p.partNumber,
    PP_MODEL: p.model,
    PP_MNNAME: p.manufacturer,
    PP_CAPAB: `${p.contactless ? 1 : 0}111900000`,
    PP_SOVER: p.firmware,
    PP_SPECVER: p.specVersion,
    PP_MANVERS: p.managerVersion,
    PP_APPVERS: p.appVersion,
    PP_GENVERS: p.appVersion,
    PP_KRNLVER: p.kernelVersion,
    PP_DSPTXTSZ: p.displayText,
    PP_MKTDESP: p.keys.mkPin,
    PP_MKTDESD: p.keys.mkData,
    PP_DKPTTDESP: p.keys.dukptPin,
    PP_DKPTTDESD: p.keys.dukptData,
    PP_TLRMEM: 100_000,
    PP_COMMINFO: '0000',
    ...(p.contactless ? { PP_CTLSCAPAB: '2469B', PP_CTLSVER: '1.0', PP_MCTLSVER: 'MC1.0', PP_VCTLSVER: 'VS1.0' } : {}),
  };
  const def = simId(id);
  if (!def) return undefined;
  if (def.name in byName) return byName[def.name];
  return undefined;
}

/**
 * PP_KSNTDESPnn (§3.2.4): the KSN of the DUKPT PIN key in slot nn as it stands, the counter of the last PIN block
 * (the one its KSN carried), as a real pinpad reports it; the slot's first KSN before any. Undefined for a slot
 * without a DUKPT PIN key, and for any other datum.
 */
function pinKsn(p: VirtualPinpadProfile, state: SimState, name: string): Buffer | undefined {
  const slot = /^PP_KSNTDESP(\d\d)$/.exec(name)?.[1];
  const first = slot === undefined ? undefined : p.dukptPinKsn[slot];
  if (first === undefined) return undefined;
  const used = cardSim(state).dukpt.counter('pin');
  return Buffer.from(used === 0 ? first : withCounter(first, used).hex, 'hex');
}

/**
 * The data of ABECS 2.12 a 2.12 pinpad still answers in GIX (protocolo_abecs_2_12.md §3.1.3.2, lines
 * 2341-2371: 8030h MK:DES:PIN, 8031h MK:DES:DAT, 8034h DUKPT:DES:PIN key maps, A100), and the order
 * the PPC930 of the public log answers a GIX without SPE_IDLIST in (transcao_completa_com_scope.txt
 * line 82: 8016h before 8012h, no 800Bh/8062h/8065h).
 */
const GIX_212_ORDER = [
  0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006, 0x8007, 0x8008, 0x8009, 0x800a, 0x8010, 0x8011, 0x8016, 0x8012,
  0x8013, 0x8014, 0x8015, 0x8020, 0x8021, 0x8022, 0x8030, 0x8031, 0x8032, 0x8033, 0x8034, 0x8035, 0x8036,
];
const IDS_212: Readonly<Record<number, (p: VirtualPinpadProfile) => string>> = {
  0x8030: () => '0'.repeat(100),
  0x8031: () => '0'.repeat(100),
  0x8034: () => '0'.repeat(100),
  // the kernel versions and graphic display data the PPC930 answers (log lines 82-146), in this pinpad's words
  0x8014: (p) => (p.contactless ? '1.0.1-20170601' : ''),
  0x8015: (p) => (p.contactless ? '1.0.0-20150224' : ''),
  0x8016: (p) => (p.contactless ? '1.0.1-20180614' : ''),
  0x8021: () => '03200240',
  0x8022: () => '11',
};

/** One GIX datum, or undefined when this pinpad has no value for it (skipped, §3.2.4). */
function gixDatum(p: VirtualPinpadProfile, state: SimState, id: number): Uint8Array | undefined {
  if (p.answers === '2.12' && IDS_212[id]) return writeRawDatum(id, Buffer.from(IDS_212[id](p), 'latin1'));
  const def = simId(id);
  const v = gixValue(p, id) ?? (def && pinKsn(p, state, def.name)) ?? tableVersionValue(state, id); // PP_TABVERnn
  if (v === undefined || !def) return undefined;
  return writeRawDatum(id, writeField(def, v));
}

/** GIX (§3.2.4/§6.4.3): the asked data in the order asked, unknown ids skipped; all "(†)" data without SPE_IDLIST. */
export const gix: SimHandler = (cmd, ctx) => {
  const params = readParams(cmd);
  const raw = params.get('SPE_IDLIST');
  const list = raw instanceof Uint8Array ? raw : undefined;
  if (list && list.length % 2 !== 0) return encodeResponse('GIX', ST_INVPARM);
  const all = ctx.profile.answers === '2.12' ? GIX_212_ORDER : GIX_DEFAULT;
  const ids = list ? Array.from({ length: list.length / 2 }, (_, i) => (list[2 * i]! << 8) | list[2 * i + 1]!) : all;
  const out: Uint8Array[] = [];
  for (const id of ids) {
    const d = gixDatum(ctx.profile, ctx.state, id);
    if (d) out.push(d);
  }
  return encodeResponse('GIX', 0, packBlocks(out));
};

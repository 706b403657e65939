import { abecsId, GIX_DEFAULT_IDS } from '../../../../tables/pinpad/abecs-ids.js';
import { CLASSIC_LAYOUTS, ginLayout } from '../../../../tables/pinpad/classic-layouts.js';
import { decodeLayout, decodeParams, encodeField, encodeLayout, encodeParams, encodeResponse, type FieldValue, type Param } from '../../../../drivers/pinpad/index.js';
import type { SimHandler } from '../engine.js';
import { openWithSecureChannel } from '../secure/opn.js';
import type { VirtualPinpadProfile } from '../profile.js';
import { tableVersionValue } from '../card/index.js'; // issue 6

const ST_INVPARM = 11;

/** OPN (§3.2.1/§3.2.2/§6.4.1): always accepted; with key data, the secure channel (src/sim/pinpad/secure). */
export const opn: SimHandler = (cmd, ctx) => openWithSecureChannel(cmd, ctx);

/** CLO (§3.2.6/§6.4.5): leaves CLO_MSG on the display; inconsistent data is no error. */
export const clo: SimHandler = (cmd, ctx) => {
  const msg = Buffer.from(cmd.blocks[0] ?? new Uint8Array()).toString('latin1').padEnd(32, ' ').slice(0, 32);
  ctx.state.display = [msg.slice(0, 16).trimEnd(), msg.slice(16).trimEnd()];
  ctx.state.opened = false;
  ctx.state.session = {};
  return encodeResponse('CLO', 0);
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
  if (acqIdx === 2) return { GIN_ACQNAM: 'Abecs', GIN_KRNLVER: p.kernelVersion, GIN_APPVERS: app, GIN_SPECVER: p.specVersion, GIN_RUF1: '', GIN_RUF2: '00' };
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
  const req = decodeLayout(CLASSIC_LAYOUTS.GIN_REQUEST, cmd.blocks[0] ?? new Uint8Array(), 'GIN');
  const acq = Number(req.GIN_ACQIDX);
  if (!Number.isInteger(acq)) return encodeResponse('GIN', ST_INVPARM);
  return encodeResponse('GIN', 0, [encodeLayout(ginLayout(acq), ginValues(ctx.profile, acq))]);
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
  const def = abecsId(id);
  if (!def) return undefined;
  if (def.name in byName) return byName[def.name];
  const ksn = /^PP_KSNTDESP(\d\d)$/.exec(def.name);
  if (ksn && p.dukptPinKsn[ksn[1]!]) return Buffer.from(p.dukptPinKsn[ksn[1]!]!, 'hex');
  return undefined;
}

/** GIX (§3.2.4/§6.4.3): the asked data in the order asked, unknown ids skipped; all "(†)" data without SPE_IDLIST. */
export const gix: SimHandler = (cmd, ctx) => {
  const params = decodeParams(cmd.blocks, 'GIX');
  const list = params.find((x) => x.id === 0x0001);
  if (list && list.value.length % 2 !== 0) return encodeResponse('GIX', ST_INVPARM);
  const ids = list ? Array.from({ length: list.value.length / 2 }, (_, i) => (list.value[2 * i]! << 8) | list.value[2 * i + 1]!) : GIX_DEFAULT_IDS;
  const out: Param[] = [];
  for (const id of ids) {
    const v = gixValue(ctx.profile, id) ?? tableVersionValue(ctx.state, id); // issue 6: PP_TABVERnn
    const def = abecsId(id);
    if (v === undefined || !def) continue;
    out.push({ id, value: encodeField({ name: def.name, format: def.format, length: def.length, variable: def.variable }, v) });
  }
  return encodeResponse('GIX', 0, encodeParams(out));
};

import { LAYOUTS } from '../spec/layouts.js';
import { writeAnswer as encodeResponse } from '../wire/command.js';
import { isLayoutFault, readLayout } from '../wire/layout.js';
import { linkCrc } from '../wire/link-bytes.js';
import type { SimHandler } from '../engine.js';
import { answer, bin, fail, readParams, ST, str } from './kit.js';
import { cardSim } from './state.js';

/** TLI (§3.5.2, §6.7.2): always starts a load; 020 when the version differs from the one in force. */
export const tli: SimHandler = (cmd, ctx) => {
  const block = cmd.blocks[0];
  if (!block || cmd.blocks.length !== 1) return fail('TLI', ST.INVPARM);
  const f = readLayout(LAYOUTS.TLI_REQUEST, block);
  if (isLayoutFault(f)) return fail('TLI', ST.INVPARM);
  ctx.state.display = ['ATUALIZANDO', 'TABELAS'];
  const differs = cardSim(ctx.state).tables.begin(
    String(f.TLI_ACQIDX),
    Buffer.from(block.subarray(2)).toString('latin1'),
  );
  return encodeResponse('TLI', differs ? ST.TABVERDIF : ST.OK);
};

/** TLR (§3.5.3, §6.7.3): records kept apart until TLE; ST_INVCALL without TLI. */
export const tlr: SimHandler = (cmd, ctx) => {
  const block = cmd.blocks[0];
  if (!block || block.length < 2 || !/^\d{2}$/.test(Buffer.from(block.subarray(0, 2)).toString('latin1')))
    return fail('TLR', ST.INVPARM);
  const ok = cardSim(ctx.state).tables.add(Buffer.from(block.subarray(2)).toString('latin1'));
  return encodeResponse('TLR', ok ? ST.OK : ST.INVCALL);
};

/** TLE (§3.5.4, §6.7.4): the load replaces the network's tables under TLI's version. */
export const tle: SimHandler = (_cmd, ctx) => {
  const ok = cardSim(ctx.state).tables.commit();
  ctx.state.display = ['', ''];
  return encodeResponse('TLE', ok ? ST.OK : ST.INVCALL);
};

/** MLI (§3.4.1, §6.6.1): starts a file; SPE_MFINFO of at least 7 bytes. */
export const mli: SimHandler = (cmd, ctx) => {
  const p = readParams(cmd);
  const name = str(p.get('SPE_MFNAME'));
  const info = bin(p.get('SPE_MFINFO'));
  if (!name || !info) return fail('MLI', ST.MANDAT);
  if (info.length < 7) return fail('MLI', ST.INVPARM);
  const b = Buffer.from(info);
  cardSim(ctx.state).media.loading = {
    name: name.trim().toUpperCase(),
    size: b.readUInt32BE(0),
    crc: b.readUInt16BE(4),
    type: b[6]!,
    chunks: [],
  };
  return encodeResponse('MLI', 0);
};

/** MLR (§3.4.2): appends SPE_DATAIN pieces. */
export const mlr: SimHandler = (cmd, ctx) => {
  const m = cardSim(ctx.state).media;
  if (!m.loading) return fail('MLR', ST.INVCALL);
  for (const d of readParams(cmd).all('SPE_DATAIN')) m.loading.chunks.push(Buffer.from(bin(d) ?? new Uint8Array()));
  return encodeResponse('MLR', 0);
};

/** MLE (§3.4.3): checks size and CRC, keeps the file (ST_MFERR otherwise). */
export const mle: SimHandler = (_cmd, ctx) => {
  const m = cardSim(ctx.state).media;
  const l = m.loading;
  if (!l) return fail('MLE', ST.INVCALL);
  m.loading = undefined;
  const data = Buffer.concat(l.chunks);
  if (data.length !== l.size || linkCrc(data, false) !== l.crc) return fail('MLE', ST.MFERR);
  m.files.set(l.name, { type: l.type, data });
  return encodeResponse('MLE', 0);
};

/** DSI (§3.4.6): shows a loaded file (the display reads "[image NAME]"). */
export const dsi: SimHandler = (cmd, ctx) => {
  const name = str(readParams(cmd).get('SPE_MFNAME'))?.trim().toUpperCase();
  if (!name) return fail('DSI', ST.MANDAT);
  const f = cardSim(ctx.state).media.files.get(name);
  if (!f) return fail('DSI', ST.MFNFOUND);
  ctx.state.display = [`[image ${name}]`, ''];
  return answer('DSI', []);
};

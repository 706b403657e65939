import { CARD_COMMANDS, CARD_LAYOUTS } from '../../../../tables/pinpad/card-commands.js';
import { PinpadError, isPinpadError } from '../../errors.js';
import { encodeLayout } from '../../codec/layout.js';
import { encodeCommand, MAX_BLOCK } from '../../codec/message.js';
import { blocks, type CommandSpec } from '../spec.js';

/** TLI (§3.5.2): the network whose tables are replaced ("00" = all) and the new 10-character version. */
export interface TliRequest {
  acquirer: string;
  version: string;
}

/** TLI (§3.5.2). ST_TABVERDIF (020) also starts the load: see `startTableLoad`. */
export const TLI: CommandSpec<TliRequest, void> = {
  id: 'TLI',
  blocking: CARD_COMMANDS.TLI.blocking,
  encode: (r) =>
    encodeCommand('TLI', [encodeLayout(CARD_LAYOUTS.TLI_REQUEST, { TLI_ACQIDX: r.acquirer, TLI_TABVER: r.version })]),
  decode: (rsp) => void blocks(rsp, 0),
};

/**
 * TLR (§3.5.3): §4.1 records, each already encoded (TAB_LEN first), as the tables module builds
 * them; or `data`, a whole TLR block (TLR_NREC + records) as its load plan packs it. At most 999.
 */
export type TlrRequest = { records: readonly string[] } | { data: string };

export const TLR: CommandSpec<TlrRequest, void> = {
  id: 'TLR',
  blocking: CARD_COMMANDS.TLR.blocking,
  encode: (r) => {
    let data: string;
    if ('data' in r) {
      if (!/^\d{2}/.test(r.data))
        throw new PinpadError('PINPAD_INVALID_ARGUMENT', 'TLR: the block must start with TLR_NREC (2 digits)', {
          field: 'TLR_NREC',
        });
      data = r.data;
    } else {
      if (r.records.length === 0 || r.records.length > 99)
        throw new PinpadError('PINPAD_INVALID_ARGUMENT', `TLR: 1 to 99 records, got ${r.records.length}`, {
          field: 'TLR_NREC',
        });
      for (const [i, rec] of r.records.entries()) {
        if (!/^\d{3}/.test(rec) || Number(rec.slice(0, 3)) !== rec.length) {
          throw new PinpadError(
            'PINPAD_INVALID_ARGUMENT',
            `TLR: record ${i + 1} does not start with its own length (TAB_LEN)`,
            { field: 'TAB_LEN', record: i + 1 },
          );
        }
      }
      data = String(r.records.length).padStart(2, '0') + r.records.join('');
    }
    if (data.length > MAX_BLOCK)
      throw new PinpadError('PINPAD_INVALID_ARGUMENT', `TLR: ${data.length} characters exceed ${MAX_BLOCK}`, {
        field: 'TLR_RECORDS',
        length: data.length,
      });
    return encodeCommand('TLR', [
      encodeLayout(CARD_LAYOUTS.TLR_REQUEST, { TLR_NREC: data.slice(0, 2), TLR_RECORDS: data.slice(2) }),
    ]);
  },
  decode: (rsp) => void blocks(rsp, 0),
};

/** TLE (§3.5.4): the records sent since TLI replace the network's tables, under TLI's version. */
export const TLE: CommandSpec<void, void> = {
  id: 'TLE',
  blocking: CARD_COMMANDS.TLE.blocking,
  longAnswer: () => true, // the tables are committed to flash
  encode: () => encodeCommand('TLE'),
  decode: (rsp) => void blocks(rsp, 0),
};

/** Anything that runs a command spec (the Pinpad). */
export interface SpecRunner {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: { signal?: AbortSignal }): Promise<Res>;
}

/** Runs TLI; ST_OK (same version) and ST_TABVERDIF (another version) both start the load (§3.5.2). */
export async function startTableLoad(
  p: SpecRunner,
  req: TliRequest,
  opts?: { signal?: AbortSignal },
): Promise<{ versionDiffers: boolean }> {
  try {
    await p.run(TLI, req, opts);
    return { versionDiffers: false };
  } catch (e) {
    if (isPinpadError(e) && e.code === 'PINPAD_STATUS' && e.context.status === 20) return { versionDiffers: true };
    throw e;
  }
}

/** A whole load: TLI, each TLR block, TLE. Interrupted before TLE, the pinpad keeps its previous tables. */
export async function loadTables(
  p: SpecRunner,
  plan: { acquirer: string; version: string; blocks: readonly string[] },
  opts?: { signal?: AbortSignal; onBlock?: (done: number, total: number) => void },
): Promise<void> {
  const run = opts?.signal ? { signal: opts.signal } : undefined;
  await startTableLoad(p, { acquirer: plan.acquirer, version: plan.version }, run);
  const total = plan.blocks.length;
  opts?.onBlock?.(0, total);
  for (const [i, data] of plan.blocks.entries()) {
    await p.run(TLR, { data }, run);
    opts?.onBlock?.(i + 1, total);
  }
  await p.run(TLE, undefined, run);
}

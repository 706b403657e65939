import type { GinResult, GixResult } from './commands/control.js';
import { INFO_GIX_IDS, infoFromGin, infoFromGix, type PinpadInfo } from './commands/info.js';
import { isUnknownCommand } from './commands/spec.js';
import { isPinpadError } from './errors.js';
import type { RunOptions } from './pinpad-options.js';

/** The information commands a pinpad answers (the driver's `gix` and `gin`). */
export interface InfoCommands {
  gix(ids?: readonly number[], opts?: RunOptions): Promise<GixResult>;
  gin(acqIdx: number, opts?: RunOptions): Promise<GinResult>;
}

/**
 * One read of the pinpad's information: GIX (the ids of INFO_GIX_IDS, then the PIN keys' KSNs, 64
 * ids a command) on a pinpad that knows the current commands; GIN 00 (+ 03 for DUKPT slot 01) on one
 * that answers GIX with ERR. `classic.only` is what this connection is known to be (undefined until
 * a read tells), set here as soon as GIX answers or is refused.
 */
export async function readPinpadInfo(
  p: InfoCommands,
  classic: { only: boolean | undefined },
  opts?: RunOptions,
): Promise<PinpadInfo> {
  if (classic.only !== true) {
    try {
      const first = await p.gix(INFO_GIX_IDS, opts);
      classic.only = false;
      const slots = Object.entries(infoFromGix(first).keys.dukptPin).filter(([, v]) => v === 'present');
      const ksnIds = slots.map(([slot]) => 0x9100 + Number(slot));
      const entries = [...first.entries];
      for (let i = 0; i < ksnIds.length; i += 64) entries.push(...(await p.gix(ksnIds.slice(i, i + 64), opts)).entries);
      return infoFromGix({ data: { ...first.data }, entries });
    } catch (e) {
      // unknown to the pinpad (ERR010), or an Abecs command the driver does not send to an obsolete pinpad (§3.2.2)
      if (!isUnknownCommand(e)) throw e;
      classic.only = true;
    }
  }
  const general = await p.gin(0, opts);
  let acq03: GinResult | undefined;
  try {
    acq03 = await p.gin(3, opts);
  } catch (e) {
    if (!isPinpadError(e, 'PINPAD_STATUS')) throw e;
  }
  return infoFromGin(general, acq03);
}

import { SecurePinpad } from '../../drivers/pinpad/index.js';
import type { Transport } from '../../drivers/transport/index.js';
import { loadPinpadKey, pinpadCardPort, type PinpadDevice } from '../adapters/index.js';
import type { Config } from '../config/index.js';
import { OmniposError, type Logger } from '../core/index.js';
import type { TableSet } from '../initialization/index.js';

/** How the daemon opens the pinpad at start: `wait` for its secure session, or open it in the `background`. */
export type PinpadAtStart = 'wait' | 'background';

export interface StartedPinpad extends PinpadDevice {
  /** Settles once the first secure session opened, or the first attempt failed (then the driver's path for an unreachable pinpad). */
  readonly opened: Promise<void>;
  /** True while the first secure session is being opened (the daemon just started). */
  readonly opening: () => boolean;
  /** Throws PINPAD_OPENING (503) while the first secure session is being opened: nothing that needs the pinpad starts. */
  readonly assertOpen: () => void;
}

/**
 * The configured pinpad behind the secure channel and the engine's card port on it, as
 * `openPinpad` (src/adapters/pinpad-device.ts) builds them, but its first secure session opened
 * in the background: the daemon is ready (health answers, systemd told READY=1) before a real
 * pinpad's secure OPN (~3 s on a PPC930) is done. Until then card sales and voids are refused
 * with PINPAD_OPENING; a pinpad that does not answer takes the unreachable-at-start path (a
 * warning; card sales fail until it answers). Built here rather than in src/adapters while
 * that layer is being rewritten; `openPinpad` could take this as an option and this copy go.
 */
export function startPinpad(
  config: Config,
  tables: () => TableSet | undefined,
  log: Logger,
  transport: () => Transport,
): StartedPinpad {
  const { key } = loadPinpadKey(config.values.stateDir);
  const driverLog = log.child({ component: 'pinpad' });
  const pinpad = new SecurePinpad({ transport, terminalKey: key, log: driverLog });
  let opening = true;
  const opened = pinpad
    .start()
    .catch((e: unknown) => {
      if (pinpad.status !== 'closed')
        driverLog.warn({ err: e }, 'pinpad not reachable at start; card sales wait for it');
    })
    .finally(() => (opening = false));
  const card = pinpadCardPort(config, tables, pinpad, driverLog);
  return {
    card,
    pinpad,
    opened,
    opening: () => opening,
    assertOpen: () => {
      if (opening)
        throw new OmniposError(
          'PINPAD_OPENING',
          "the pinpad's secure session is still opening (the daemon just started): retry in a few seconds",
          { status: pinpad.status },
        );
    },
    close: async () => {
      // a connect in flight fails as closed (and logs nothing); `opened` then settles
      await pinpad.close().catch(() => undefined);
    },
  };
}

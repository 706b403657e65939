import {
  openPinpad,
  openPinpadTarget,
  startPinpad,
  type PinpadAtStart,
  type PinpadDevice,
  type PinpadTarget,
  type StartedPinpad,
} from '../adapters/index.js';
import type { Config } from '../config/index.js';
import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { TableSet } from '../initialization/index.js';
import type { Held } from './held.js';
import { PinpadKeySlots } from './pinpad-key-slots.js';

/** The daemon's pinpad: where it is, the device behind the secure channel, and its key slots. */
export interface DaemonPinpad {
  readonly pinpadTarget: PinpadTarget;
  /** The pinpad opened in the background (`pinpadAtStart: 'background'`), else undefined. */
  readonly started: StartedPinpad | undefined;
  readonly pinpadDevice: PinpadDevice;
  readonly keySlots: PinpadKeySlots;
}

/**
 * The pinpad as the configuration names it (src/adapters/devices.ts, as for the CLI), its secure
 * session opened now or in the background, and its DUKPT key slots read; each part registered in
 * `held` to close. The embedded virtual pinpad listens on loopback and the driver talks to it over
 * real sockets.
 */
export async function openDaemonPinpad(
  held: Held,
  config: Config,
  opts: { tables: () => TableSet | undefined; clock: Clock; log: Logger; atStart: PinpadAtStart | undefined },
): Promise<DaemonPinpad> {
  const { tables, clock, log } = opts;
  const values = config.values;
  const pinpadTarget = await held.step('the pinpad', () =>
    openPinpadTarget(values.pinpad.device, { log: log.child({ component: 'pinpad' }) }),
  );
  held.add('the pinpad', () => pinpadTarget.stop());
  // `omnipos run` opens the pinpad's secure session in the background (a PPC930's secure OPN takes
  // ~3 s): ready once the API takes requests, card sales refused with PINPAD_OPENING until it is open.
  const started: StartedPinpad | undefined =
    opts.atStart === 'background' ? startPinpad(config, tables, log, pinpadTarget.transport) : undefined;
  const pinpadDevice =
    started ?? (await held.step('the pinpad', () => openPinpad(config, tables, log, pinpadTarget.transport)));
  held.add('the pinpad', () => pinpadDevice.close());
  // The DUKPT key slots, read once while the daemon holds the pinpad (GET /v1/health, omnipos diag).
  const keySlots = new PinpadKeySlots(
    pinpadDevice.pinpad,
    { pin: values.pinpad.pinKeySlot, data: values.pinpad.dataKeySlot },
    () => clock.now(),
    log.child({ component: 'pinpad-keys' }),
  ).start();
  held.add('the key slot reader', () => keySlots.stop());
  return { pinpadTarget, started, pinpadDevice, keySlots };
}

import {
  BibcompCardGate,
  bibcompLibrary,
  bibcompTransportFor,
  TYPED_PAN_REFUSAL,
} from '../../drivers/bibcomp/index.js';
import { card as cardCommands, SecurePinpad } from '../../drivers/pinpad/index.js';
import type { Transport } from '../../drivers/transport/index.js';
import type { Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { CardPort } from '../engine/index.js';
import type { TableSet } from '../initialization/index.js';
import { PinpadCardPort, tableProductSelector, typedEntryRefusal } from './pinpad-card.js';
import { loadPinpadKey } from './pinpad-keys.js';
import { unattendedTerminalData } from './pinpad-terminal-emv.js';

/**
 * The pinpad behind the vendor's BibComp library (drivers/bibcomp): the same driver, each classic
 * command as text through the library's generic command (PP_StartGenericCmd/PP_GenericCmd). A
 * library that does not load or lacks a function is a configuration error, named.
 */
export function bibcompTransport(
  d: { library: string; port: string; callTimeoutMs: number },
  log?: Logger,
): () => Transport {
  let lib: ReturnType<typeof bibcompLibrary>;
  try {
    lib = bibcompLibrary(d.library);
  } catch (e) {
    throw new OmniposError('CONFIG_INVALID', `pinpad.device.library: ${(e as Error).message}`, {
      path: 'pinpad.device.library',
    });
  }
  return () => bibcompTransportFor(lib, { port: d.port, callTimeoutMs: d.callTimeoutMs, ...(log ? { log } : {}) });
}

export interface PinpadDevice {
  card: CardPort;
  pinpad: SecurePinpad;
  close(): Promise<void>;
}

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
 * The configured pinpad behind the secure channel, and the engine's card port on it; the transport is the one
 * src/adapters/devices.ts builds from the configuration (the CLI's too). Its first secure session opens in the
 * background: the daemon is ready (health answers, systemd told READY=1) before a real pinpad's secure OPN (~3 s
 * on a PPC930) is done, and until then card sales and voids are refused with PINPAD_OPENING (`assertOpen`);
 * `openPinpad` waits for it. An unreachable pinpad does not stop the daemon: a warning, the driver keeps
 * reconnecting and card sales fail until it answers.
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

/** `startPinpad`, its first secure session awaited (or its first attempt failed). */
export async function openPinpad(
  config: Config,
  tables: () => TableSet | undefined,
  log: Logger,
  transport: () => Transport,
): Promise<StartedPinpad> {
  const started = startPinpad(config, tables, log, transport);
  await started.opened;
  return started;
}

/**
 * The engine's card port on an opened (or opening) secure pinpad: card sales refused by name on a pinpad
 * that answers OPN as obsolete, the product and typed entry from the tables in force, the unattended
 * terminal's EMV data on a kiosk.
 */
export function pinpadCardPort(
  config: Config,
  tables: () => TableSet | undefined,
  pinpad: SecurePinpad,
  driverLog: Logger,
): PinpadCardPort {
  // a pinpad that answers OPN as an obsolete one is refused card sales by name (no Abecs command, so no EBX, §3.2.2)
  const classic = new cardCommands.ClassicCardPinpad(pinpad);
  // behind a BibComp library no card is read nor number typed: refused by name (drivers/bibcomp/reach.ts)
  const bibcomp = config.values.pinpad.device.kind === 'bibcomp';
  return new PinpadCardPort({
    pinpad: bibcomp ? new BibcompCardGate(classic) : classic,
    acquirerIndex: config.values.pinpad.acquirerIndex,
    pinKeySlot: config.values.pinpad.pinKeySlot,
    dataKeySlot: config.values.pinpad.dataKeySlot,
    // The tables in force decide the product (the customer chooses on the pinpad when several fit) and typed entry.
    selectProduct: tableProductSelector(tables),
    typedRefusal: (method) => (bibcomp ? TYPED_PAN_REFUSAL : typedEntryRefusal(tables(), method)),
    // A kiosk tells the card it is unattended and takes no signature (EMV Book 4 A1/A2): SPE_EMVDATA of GCX and GOX.
    ...(config.values.terminal.mode === 'unattended'
      ? {
          terminalEmvData: () =>
            unattendedTerminalData(
              tables()?.tables.aidRecords ?? [],
              String(config.values.pinpad.acquirerIndex).padStart(2, '0'),
            ),
        }
      : {}),
    log: driverLog,
  });
}

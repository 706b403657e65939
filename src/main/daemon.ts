import type { Dispatcher } from 'undici';
import type { PinpadDevice } from '../adapters/index.js';
import type { Config } from '../config/index.js';
import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type {
  AcquirerBackend,
  EngineEvent,
  OutboxForwarder,
  PixEngine,
  CnpEngine,
  ReceiptPort,
  QrEngine,
  SaleEngine,
  VoidEngine,
} from '../engine/index.js';
import type { FleetClient } from '../fleet/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import type { VirtualPinpad, VirtualPrinter } from '../sim/index.js';
import type { Db, Journal, MerchantOrderIds, Outbox } from '../store/index.js';
import type { AcquirerKindEntry } from '../factory/index.js';
import type { AcquirerProbeOptions } from './acquirer-probe.js';
import type { Operations } from './operations.js';
import type { PinpadAtStart } from '../adapters/index.js';

// The daemon's shape: what startDaemon (src/main.ts) is given and what it returns.

/** What a running daemon holds; `stop()` closes it in reverse order. */
export interface Daemon {
  readonly config: Config;
  readonly db: Db;
  readonly journal: Journal;
  readonly outbox: Outbox;
  readonly orderIds: MerchantOrderIds;
  readonly engine: SaleEngine;
  readonly qrEngine: QrEngine;
  /** Pix sales, when the configuration has e-commerce credentials. */
  readonly pixEngine: PixEngine | undefined;
  /** Sales without the card, when the configuration has `cardNotPresent`. */
  readonly cnpEngine: CnpEngine | undefined;
  /** Card voids (a supervisor authorizes each). */
  readonly voids: VoidEngine;
  readonly forwarder: OutboxForwarder;
  /**
   * The acquirer as the engines see it (`acquirer.kind`'s backend, src/factory/acquirer-backend.ts): sales,
   * delivery, voids, QR codes, Pix, the initialization tables' source, the probe. A kind's own clients
   * stay behind it (tests reach omni's through `omniClientsOf`).
   */
  readonly backend: AcquirerBackend;
  /** Where receipts go. */
  readonly receipts: ReceiptPort;
  /** The pinpad (behind the secure channel), and the virtual one when configured. */
  readonly pinpad: PinpadDevice;
  /** Settles once the pinpad's first secure session opened or its first attempt failed (at once when the start waited for it). */
  readonly pinpadOpened: Promise<void>;
  readonly virtualPinpad: VirtualPinpad | undefined;
  /** The virtual printer, when the configuration asks for one (its paper can be read). */
  readonly virtualPrinter: VirtualPrinter | undefined;
  /** Where the pinpad and the printer are (src/adapters/devices.ts describes them as the CLI does). */
  readonly devices: { readonly pinpad: string; readonly printer: string };
  readonly apiTokenFile: string;
  /** The embedded sandbox host, when the configuration asks for it. */
  readonly sandbox: RunningSandbox | undefined;
  /** Where the cash register's API listens, when started. */
  readonly apiUrl: string | undefined;
  /** The day book and the alarm monitor. */
  readonly operations: Operations;
  /** The API's TLS listener for the LAN (`api.lan`), when configured. */
  readonly lanUrl: string | undefined;
  /** The fleet's MQTT client, when `fleet.mqtt` is configured. */
  readonly fleet: FleetClient | undefined;
  stop(): Promise<void>;
}

export interface DaemonDeps {
  config: Config;
  log: Logger;
  clock?: Clock;
  env?: Readonly<Record<string, string | undefined>>;
  /** Listen port of the embedded sandbox instead of the configured one (0: a free port). */
  sandboxPort?: number;
  /** Start the local API (default true); its port instead of the configured one (0: a free port). */
  api?: boolean;
  apiPort?: number;
  onEvent?: (event: EngineEvent) => void;
  /** Interceptors composed onto the acquirer clients' dispatcher (the homologation runner's evidence tap). */
  acquirerInterceptors?: readonly Dispatcher.DispatcherComposeInterceptor[];
  /**
   * The acquirer kind's entry to use instead of the configured one's (`acquirer.kind`): a test's stub kind
   * (test/unit/engine/ports.stub-backend.test.ts). Unset: the factory's table decides.
   */
  acquirerKind?: AcquirerKindEntry;
  /** Timings of the acquirer reachability probe (tests shorten them). */
  acquirerProbe?: AcquirerProbeOptions;
  /** The fleet client's broker retry period, ms (tests shorten it). */
  fleetReconnectMs?: number;
  /**
   * A stop asked for while starting (SIGTERM): the start-up stops at its next step, closes what it
   * opened and rejects with StartAborted (src/main/held.ts).
   */
  signal?: AbortSignal;
  /**
   * `background` (what `omnipos run` does): ready before the pinpad's first secure session is open,
   * card sales and voids refused with PINPAD_OPENING (503) meanwhile; `wait` (the default, for
   * in-process callers that sell at once: the demo, `omnipos qr sale`, homologation, tests).
   */
  pinpadAtStart?: PinpadAtStart;
  /** Free bytes on the state directory's file system below which no new payment starts (default 8 MiB). */
  diskReserveBytes?: number;
}

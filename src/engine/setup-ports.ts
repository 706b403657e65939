import type { WalletCardData } from '../crypto/index.js';
import type { TablesSource } from '../initialization/index.js';

/**
 * The engine's ports to the acquirer beside the payments, exported with the others by ./ports.ts:
 * what the technician's commands need (the terminal's initialization, the store's and the
 * terminal's registration, a wallet's payment in the sandbox) and the names of the requests the
 * metrics count, all in the engine's words. docs/architecture.md, "Ports and adapters".
 */

/* ------------------------------------------------- setting the terminal up */

/**
 * What the terminal is, as the acquirer's initialization asks for it: the pinpad's facts (read with
 * GIX, ABECS §3.1.3.2; undefined when the pinpad has none) and the payment application's version.
 * The backend turns them into its host's fields (the omni one: `TechnicalParameter`).
 */
export interface TerminalTechnicalFacts {
  serialNumber?: string | undefined;
  model?: string | undefined;
  manufacturer?: string | undefined;
  /** The pinpad's operating system or firmware. */
  firmware?: string | undefined;
  /** The ABECS specification the pinpad follows (e.g. 2.12). */
  specificationVersion?: string | undefined;
  /** The ABECS shared library's version. */
  sharedLibraryVersion?: string | undefined;
  /** The acquirer's application inside the pinpad. */
  pinpadApplicationVersion?: string | undefined;
  emvKernel?: string | undefined;
  contactlessModule?: string | undefined;
  payPassKernel?: string | undefined;
  payWaveKernel?: string | undefined;
  /** Whether the pinpad has a contactless reader. */
  contactless: boolean;
  /** omnipos's own version. */
  paymentApplicationVersion: string;
}

/** The initialization of one terminal, as `omnipos init` runs it. */
export interface TerminalInitialization {
  /** Where the tables come from, with the technical facts sent. */
  readonly source: TablesSource;
  /** The request, as a technician reads it in the step line (e.g. `POST /initialization`). */
  readonly request: string;
  /** The technical facts as the host receives them, in its own fields (the `--json` report). */
  readonly sent: Readonly<Record<string, string>>;
}

/** A store (merchant) registered at the acquirer, as `omnipos register merchant` shows it. */
export interface StoreRegistration {
  /** The id the terminal's configuration names it by (`terminal.subordinatedMerchantId`). */
  merchantId: string;
  tradeName?: string | undefined;
  /** The document's type and number as the host shows them (e.g. `Cnpj 11444777000161`). */
  document?: string | undefined;
  /** The host's answer as it came (the `--json` output). */
  answer: Readonly<Record<string, unknown>>;
}

/** A terminal to register for a store; without `equipment` it is registered with none. */
export interface TerminalRegistration {
  merchantId: string;
  /** The terminal's logical number (8 letters or digits). */
  terminalId: string;
  /** The acquirer's equipment model number and the pinpad's serial number. */
  equipment?: { model: number; serial: string } | undefined;
}

/** A wallet's side of a QR code payment, for the sandbox only (`omnipos wallet pay`). */
export interface WalletPayer {
  /** The address the card data would go to: the command refuses anything but a loopback one. */
  readonly address: string;
  /** Pays `qrCode` (a sale's code, or a void's cancellation code); resolves to the wallet API's answer as it came. */
  pay(payment: { qrCode: string; card: WalletCardData; payerDocument: string; payerName: string }): Promise<unknown>;
}

/**
 * What the technician's commands need of the acquirer besides the daemon's ports: the terminal's
 * initialization, the store's and the terminal's registration, and a wallet's payment of a QR code
 * (sandbox only). Built, like the daemon's `AcquirerBackend` (./ports.ts), by `acquirer.kind`
 * (`src/factory/acquirer-backend.ts` `acquirerProvisioning`), without the terminal's database.
 * A field the host refuses is `INVALID_ARGUMENT` naming it; an unreachable host keeps its own code.
 */
export interface AcquirerProvisioning {
  readonly kind: string;
  initialization(terminal: {
    merchantId: string;
    terminalId: string;
    facts: TerminalTechnicalFacts;
  }): TerminalInitialization;
  /** Registers a store from the host's own fields (the file the technician wrote from the acquirer's manual). */
  registerStore(fields: Readonly<Record<string, unknown>>): Promise<StoreRegistration>;
  /** Reads a registered store back. */
  store(merchantId: string): Promise<StoreRegistration>;
  /** Registers a terminal; resolves to the host's answer as it came. */
  registerTerminal(terminal: TerminalRegistration): Promise<Readonly<Record<string, unknown>>>;
  /** The wallet's side of QR code payments; undefined when this acquirer has no wallet API. */
  readonly wallet: WalletPayer | undefined;
  close(): Promise<void>;
}

/* ------------------------------------------------------------ measurements */

/**
 * What the terminal asks of its acquirer, in the engine's words: the `operation` label of the host's
 * latency metric (`omnipos_host_request_duration_seconds`). Each backend maps its requests to these
 * (the omni one: a column of its routes table); a request it cannot place is `other`.
 */
export const HOST_OPERATIONS = [
  /** The acquirer's own access token (OAuth). */
  'token',
  /** A card sale's authorization, its confirmation, its undo (by PaymentId or order id), its query. */
  'sale',
  'confirm',
  'undo',
  'query',
  /** A card void's create, confirmation, undo and query. */
  'void',
  'void-confirm',
  'void-undo',
  'void-query',
  /** A charge shown as a code (a Pix charge or a wallet QR code sale): its creation, its status, its cancel or refund. */
  'charge',
  'charge-query',
  'charge-void',
  /** The card's BIN looked up. */
  'card-bin',
  /** A card saved at the host for later sales by its token. */
  'card-save',
  /** The initialization tables. */
  'initialization',
  /** The store's and the terminal's registration. */
  'registration',
  /** A wallet's side of a QR code payment (the sandbox's wallet API). */
  'wallet',
  'other',
] as const;
export type HostOperation = (typeof HOST_OPERATIONS)[number];

/** Names a request to the acquirer's addresses (its method and path, no query) by its operation. */
export type HostOperationOf = (method: string, path: string) => HostOperation;

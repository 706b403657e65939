import { z } from 'zod';
import { isNotBlank } from './checks.js';
import { ACQUIRER_CONFIG, ACQUIRER_KINDS, type AcquirerInput, type AcquirerValues } from './acquirer-kinds.js';
import { cardNotPresentSchema } from './card-not-present-schema.js';
import { filePath, httpUrl, port } from './fields.js';

/**
 * The configuration, validated at start. Units are in the key names or beside each field;
 * relative paths resolve against the directory of the configuration file.
 */

export const Environment = z.enum(['sandbox', 'homologation', 'production']);
export type Environment = z.infer<typeof Environment>;

const pinpad = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('virtual'),
    /** TCP port of the embedded virtual pinpad on loopback; 0 picks a free one. */
    port: port.default(0),
    /**
     * The embedded virtual pinpad's control port on loopback (absent: none): `omnipos sim card --control
     * PORT --name debit` chooses the card the customer presents at the next sale; 0 picks a free one.
     */
    control: port.optional(),
  }),
  z.strictObject({
    kind: z.literal('serial'),
    /** A device path, preferably a stable udev name such as /dev/pinpad or /dev/serial/by-id/…. */
    path: filePath,
    baudRate: z.number().int().positive().default(19200),
  }),
  z.strictObject({
    kind: z.literal('usb'),
    /** Known USB vendor and product ids, hexadecimal, e.g. "1753". Discovery never probes unknown ports. */
    vendorId: z.string().regex(/^[0-9a-fA-F]{4}$/, 'must be 4 hex digits'),
    productId: z.string().regex(/^[0-9a-fA-F]{4}$/, 'must be 4 hex digits'),
  }),
  z.strictObject({ kind: z.literal('tcp'), host: z.string().min(1), port }),
  z.strictObject({
    kind: z.literal('bibcomp'),
    /** The vendor's BibComp shared library (PPCOMP C API, "API Compartilhada para Pinpad"), e.g. /opt/vendor/lib/libppcomp.so. */
    library: filePath,
    /** The port string the library's PP_Open takes (vendor-defined: "COM1", "/dev/ttyACM0", "USB"…). */
    port: z.string({ error: 'must be the port string for PP_Open' }).min(1, 'must be the port string for PP_Open'),
    /** A library call that has not returned after this long wedges the bridge (the daemon stays up; restart it). */
    callTimeoutMs: z.number().int().min(1000).max(600_000).default(15_000),
  }),
]);

const pinpadOptions = z.strictObject({
  device: pinpad.default({ kind: 'virtual', port: 0 }),
  /** DUKPT key slot (index) of the PIN key and of the data key in the pinpad (defaults: the virtual pinpad's, 01 and 02). */
  pinKeySlot: z.number().int().min(0).max(99).default(1),
  dataKeySlot: z.number().int().min(0).max(99).default(2),
  /** The acquirer's table index (ACQIDX, TAB_ACQ) in GCX/GOX/GIX; 03 as the sandbox's AID records carry it. */
  acquirerIndex: z.number().int().min(0).max(99).default(3),
});

const printer = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('virtual') }),
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({
    kind: z.literal('usb'),
    vendorId: z.string().regex(/^[0-9a-fA-F]{4}$/),
    productId: z.string().regex(/^[0-9a-fA-F]{4}$/),
  }),
  z.strictObject({ kind: z.literal('serial'), path: filePath, baudRate: z.number().int().positive().default(9600) }),
  z.strictObject({ kind: z.literal('tcp'), host: z.string().min(1), port: port.default(9100) }),
]);

/**
 * The acquirer: its kind, and that kind's own keys under its name (`acquirer.omni`), one member per
 * kind of acquirer-kinds.ts (the configuration's guards read them through the kind's rules there).
 */
function acquirerSchema(): z.ZodType<AcquirerValues, AcquirerInput> {
  const fields = { z, httpUrl, filePath, port };
  const [first, ...rest] = ACQUIRER_KINDS.map((k) =>
    z.strictObject({ kind: z.literal(k), [k]: ACQUIRER_CONFIG[k].keys(fields) }),
  );
  // Each member is `{ kind: K, K: ACQUIRER_CONFIG[K]'s keys }`, which is what AcquirerValues/AcquirerInput say of
  // every K; zod types a computed key as a string index, so the union is widened, then named by those types.
  const union: z.ZodType = z.discriminatedUnion('kind', [first!, ...rest], {
    error: (issue) => {
      const input: unknown = issue.input;
      if (issue.code !== 'invalid_union' || input === null || typeof input !== 'object' || !('kind' in input))
        return undefined;
      return `unknown acquirer ${JSON.stringify(input.kind)}: this build speaks to ${ACQUIRER_KINDS.map((k) => `"${k}"`).join(', ')}`;
    },
  });
  return union as z.ZodType<AcquirerValues, AcquirerInput>;
}
const acquirer = acquirerSchema();

const cardNotPresent = cardNotPresentSchema();

const terminal = z.strictObject({
  /** The acquirer's SubordinatedMerchantId (a UUID). */
  subordinatedMerchantId: z.uuid('must be a UUID'),
  /** The acquirer's TerminalId, 8 characters. */
  terminalId: z.string().regex(/^[0-9A-Za-z]{8}$/, 'must be 8 letters or digits'),
  /** This terminal's ordinal within the merchant (set at registration). */
  ordinal: z.number().int().min(1, 'must be 1 to 999').max(999, 'must be 1 to 999'),
  /**
   * The terminal part of every MerchantOrderId (4 digits): unique across every terminal of the
   * acquirer client (the OAuth clientId, which serves several merchants), since the host keeps
   * order ids per client, not per merchant. Required outside the sandbox; in the sandbox it
   * defaults to the ordinal.
   */
  orderIdTerminal: z.number().int().min(1, 'must be 1 to 9999').max(9999, 'must be 1 to 9999').optional(),
  /**
   * What the cardholder's statement shows after the merchant's name (the sale's `SoftDescriptor`):
   * at most 13 characters, A–Z, 0–9 and spaces. Required outside the sandbox; in the sandbox "OMNIPOS".
   */
  softDescriptor: z
    .string()
    .regex(/^[A-Za-z0-9 ]{1,13}$/, 'must be 1 to 13 letters A-Z, digits or spaces (no accents or symbols)')
    .refine(isNotBlank, 'must not be blank')
    .optional(),
  /** `attended` (a cashier) or `unattended` (a kiosk). */
  mode: z.enum(['attended', 'unattended']).default('attended'),
  /**
   * The merchant's sub-acquirer data, sent on every card sale as `Payment.PaymentFacilitator` when
   * present: mandatory for a sub-acquirer (pt:2154, fields and sizes pt:2248-2259) and for payment
   * facilitators (ecom:2367). Every field is text, as the manual's example sends it.
   */
  paymentFacilitator: z
    .strictObject({
      /** SMID of the sub-seller, up to 10 digits. */
      establishmentCode: z.string().regex(/^\d{1,10}$/, 'must be 1 to 10 digits'),
      /** The sub-seller's TerminalID, up to 8 characters. */
      terminalAcquirerId: z.string().min(1).max(8),
      subEstablishment: z.strictObject({
        /** PFID, the sub-acquirer's code for the card brand, up to 15 characters. */
        establishmentCode: z.string().min(1).max(15),
        mcc: z.string().regex(/^\d{4}$/, 'must be 4 digits'),
        address: z.string().min(1).max(50),
        city: z.string().min(1).max(50),
        state: z.string().regex(/^[A-Z]{2}$/, 'must be 2 capital letters'),
        postalCode: z.string().regex(/^\d{8,9}$/, 'must be 8 or 9 digits'),
        phoneNumber: z.string().regex(/^\d{1,13}$/, 'must be 1 to 13 digits'),
        countryCode: z
          .string()
          .regex(/^\d{3}$/, 'must be 3 digits (076: Brazil)')
          .default('076'),
        documentType: z.enum(['Cpf', 'Cnpj']),
        documentNumber: z.string().regex(/^\d{11,14}$/, 'must be 11 to 14 digits'),
      }),
    })
    .optional(),
});

const sandbox = z.strictObject({
  /** Start the sandbox host inside the daemon (sandbox environment only). */
  embedded: z.boolean().default(true),
  /** TCP port of the embedded sandbox host on loopback. */
  port: port.default(18_443),
  /**
   * A cents-chosen outcome applies to the first N attempts only, so a retry can finish. Unset (the
   * default): on every attempt, as the public sandbox does (CONECTA_PT 1290-1300).
   */
  outcomeAttempts: z.number().int().min(1).max(100).optional(),
});

const payments = z.strictObject({
  /** How long the cash register has to confirm or undo an approved sale (confirmation: ecr), seconds. */
  ecrDecisionSeconds: z.number().int().min(1).max(86_400).default(900),
  /** Deadlines end at least this long before the daily close (00:00 host time), seconds. */
  closeMarginSeconds: z.number().int().min(0).max(21_600).default(1800),
  /**
   * How long after the daily close a request of that day may still become visible to the host's
   * query, seconds: a sale, void or QR code "not found" is never final before the close of its day,
   * and only after this window counted from that close (not published: docs/decisions.md, questions).
   */
  visibilityWindowSeconds: z.number().int().min(0).max(86_400).default(900),
  /**
   * Undo a decline whose answer does not make the denial clear (Status 3 with ReturnCode 99 "Time
   * out", a 4xx with Code 0), as pt:7330 reads literally; off: such a sale ends declined with no undo
   * (docs/decisions.md, the rulebook's `unclear-decline` row and its question).
   */
  undoUnclearDeclines: z.boolean().default(false),
});

const qr = z.strictObject({
  /** How long a wallet QR code can be paid, seconds (81.01 + this; the sandbox checks the same value). */
  validitySeconds: z.number().int().min(30).max(86_400).default(900),
  /** How long after that a cancelled or expired code is still watched for a late payment, seconds. */
  watchMarginSeconds: z.number().int().min(0).max(86_400).default(300),
  /** How often the host is asked whether a shown code was paid, milliseconds. */
  pollMs: z.number().int().min(100).max(60_000).default(1000),
  /**
   * Who makes the wallet QR code: `ecommerce` (the e-commerce API's QR code sale, the only code the
   * acquirer's host registers; needs acquirer.omni.merchantId and merchantKeyFile) or `terminal` (the
   * terminal builds br.com.padraoq itself: only for the sandbox or an acquirer that registers such
   * codes). Default: `terminal` in the sandbox, `ecommerce` elsewhere.
   */
  provider: z.enum(['terminal', 'ecommerce']).optional(),
});

const initialization = z.strictObject({
  /** Download the tables again this often, hours (0: only when a sale's answer names a newer version). */
  everyHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
});

/** An optional second listener of the same API, over TLS, for a cash register on another machine. */
const apiLan = z.strictObject({
  /** The LAN address to listen on (e.g. 192.168.0.10; 0.0.0.0 for every interface). */
  host: z.string().min(1, 'must not be empty'),
  port: port.default(7879),
  /** PEM certificate (with its chain) the cash register verifies. */
  certFile: filePath,
  /** PEM private key of that certificate, readable only by the service user (read at start, never logged). */
  keyFile: filePath,
});

const api = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(7878),
  /** Absent by default: the API answers on loopback only. */
  lan: apiLan.optional(),
});

/** The TEF Dial file interface (docs/tef-dial.md): off unless `enabled`. */
const tefDial = z.strictObject({
  /** Answers the PDV's IntPos.001 files in the request folder. */
  enabled: z.boolean().default(false),
  /** The base folder; default `<stateDir>/TEF_DIAL`. */
  dir: filePath.optional(),
  /** Where the PDV writes its requests; default `<dir>/REQ`. */
  requestDir: filePath.optional(),
  /** Where omnipos writes IntPos.Sts and its answers; default `<dir>/RESP`. */
  responseDir: filePath.optional(),
});

const alarms = z.strictObject({
  /** Where alarms are POSTed (JSON, signed with HMAC-SHA256 of the timestamp and body under the shared secret); none: health and logs only. */
  webhook: z
    .strictObject({
      url: httpUrl,
      /** File holding the shared secret (read at start, never logged). */
      secretFile: filePath,
      /** Per-request timeout, milliseconds. */
      timeoutMs: z.number().int().min(100).max(60_000).default(5000),
    })
    .optional(),
  /** How often the conditions are checked (outbox, printer, pinpad, clock), seconds. */
  checkSeconds: z.number().int().min(1).max(3600).default(5),
  /** An undo still undelivered this close to the daily close (00:00 host time) is an alarm, minutes. */
  closeWarningMinutes: z.number().int().min(1).max(720).default(60),
  /** The host's clock this far from ours is an alarm, seconds. */
  clockOffsetSeconds: z.number().int().min(1).max(86_400).default(60),
  /**
   * A card-not-present pre-authorization still uncaptured this long before its host's capture
   * deadline (15 days on the e-commerce API, 5 on the webservice 1.5) is an alarm, hours.
   */
  captureWarningHours: z.number().int().min(1).max(240).default(24),
  /**
   * While the acquirer answers, how long it may stay silent before the terminal asks it (the
   * backend's probe, never a sale): health's reachability and the host's clock follow the answer, seconds.
   */
  probeSeconds: z.number().int().min(1).max(3600).default(300),
});

const supervisor = z.strictObject({
  /**
   * File holding the supervisor's password as a salted scrypt hash (never the password itself),
   * written by `omnipos supervisor password`; default <stateDir>/supervisor-password.
   */
  passwordFile: filePath.optional(),
});

const log = z.strictObject({
  level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Write <stateDir>/logs/omnipos.log beside standard output (default). Under systemd, `false`
   * leaves the journal alone to keep the lines (journald's own caps bound it).
   */
  file: z.boolean().default(true),
  /** The log file's size cap, bytes: past it the file is rotated (omnipos.log.1, …). */
  maxFileBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  /** Rotated files kept besides the current one (the disk holds at most (keepFiles + 1) × maxFileBytes). */
  keepFiles: z.number().int().min(0).max(20).default(3),
  /** Lines per second past which info and debug lines are dropped (a count says how many); warn and worse never are. */
  maxLinesPerSecond: z.number().int().min(10).max(100_000).default(200),
});

/** What the terminal keeps, and for how long (docs/operations.md, "Retention"), and its disk watch. */
const storage = z.strictObject({
  /** Days a closed day stays whole in the database after its date (voids, disputes, reprints). */
  databaseDays: z.number().int().min(1).max(3650).default(90),
  /** Days a closed day's archive file is kept after its date (fiscal records: five years). */
  archiveDays: z.number().int().min(1).max(36_500).default(1830),
  /** How often retention, vacuum and the WAL checkpoint run between sales, seconds. */
  maintenanceSeconds: z.number().int().min(1).max(86_400).default(600),
  /** The disk alarm: raised when the free space would last fewer days than this at the current rate. */
  lowDiskDays: z.number().int().min(1).max(3650).default(30),
  /** The disk alarm: raised too when fewer bytes than this are free, whatever the rate. */
  lowDiskBytes: z
    .number()
    .int()
    .min(1024 * 1024)
    .default(256 * 1024 * 1024),
});

/** Fleet telemetry and safe remote commands over MQTT. Absent: the terminal talks to no broker. */
const fleetMqtt = z.strictObject({
  /** The broker: `mqtts://host:8883` (TLS). `mqtt://` (clear) is accepted only in the sandbox environment. */
  url: z.string().regex(/^mqtts?:\/\/[^/\s]+/, 'must be an mqtts:// (or, in the sandbox, mqtt://) URL'),
  /** The merchant's level of the topic tree; default terminal.subordinatedMerchantId. Letters, digits, `-` and `_`. */
  merchant: z
    .string()
    .regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')
    .optional(),
  /** Topic prefix; default `omnipos/<merchant>/<terminal id>`. No wildcards. */
  topicPrefix: z
    .string()
    .regex(/^[^#+\s]+[^/#+\s]$/, 'must be a topic without wildcards nor a trailing /')
    .optional(),
  /** MQTT client id; default `omnipos-<terminal id>`. */
  clientId: z.string().min(1).max(64).optional(),
  /** Username and password, each from a file (read at start, never logged). */
  usernameFile: filePath.optional(),
  passwordFile: filePath.optional(),
  /** Client certificate and its key (PEM files), instead of or besides the password. */
  certFile: filePath.optional(),
  keyFile: filePath.optional(),
  /** The CA (PEM) that signed the broker's certificate; default the system's CAs. */
  caFile: filePath.optional(),
  /** Keep-alive, seconds: a dead terminal shows offline (its last will) within about 1.5 times this. */
  keepaliveSeconds: z.number().int().min(5).max(3600).default(30),
  /** How often `status` is published even when nothing changed, seconds. */
  statusSeconds: z.number().int().min(5).max(86_400).default(300),
  /** Telemetry messages kept while the broker is away; past it the oldest are dropped (never a sale delayed). */
  maxQueued: z.number().int().min(100).max(1_000_000).default(50_000),
});

const fleet = z.strictObject({
  mqtt: fleetMqtt.optional(),
});

export const ConfigSchema = z.strictObject({
  /** Editor hint pointing at config/omnipos.schema.json; ignored. */
  $schema: z.string().optional(),
  environment: Environment.default('sandbox'),
  /** Where the database, the API token and the logs live. */
  stateDir: filePath,
  terminal,
  acquirer,
  /** Sales without the card present; absent by default. */
  cardNotPresent: cardNotPresent.optional(),
  sandbox: sandbox.prefault({}),
  pinpad: pinpadOptions.prefault({}),
  printer: printer.default({ kind: 'virtual' }),
  payments: payments.prefault({}),
  qr: qr.prefault({}),
  initialization: initialization.prefault({}),
  api: api.prefault({}),
  /** The TEF Dial file interface for PDVs that speak IntPos.001; off by default. */
  tefDial: tefDial.prefault({}),
  alarms: alarms.prefault({}),
  /** Who authorizes voids. */
  supervisor: supervisor.prefault({}),
  log: log.prefault({}),
  storage: storage.prefault({}),
  /** Fleet telemetry over MQTT; absent by default. */
  fleet: fleet.prefault({}),
});

/** The JSON Schema kept in config/omnipos.schema.json (a test keeps the two equal). */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' });
}

export type ConfigValues = z.output<typeof ConfigSchema>;

/**
 * The one catalogue of error codes, grouped by area. A code is stable: the API maps it to an
 * HTTP status, the CLI to an exit code, and callers match on it, never on the message.
 *
 * Exit codes: 2 = the input or configuration is wrong (fix it and retry), 3 = a device or the
 * acquirer is unavailable (retry later), 4 = refused by policy, 1 = a bug or an unexpected state.
 */
export const ERROR_CODES = {
  // core
  INTERNAL: { http: 500, exit: 1, summary: 'unexpected internal error' },
  INVALID_ARGUMENT: { http: 400, exit: 2, summary: 'an argument is malformed' },
  // configuration and environments
  CONFIG_INVALID: { http: 500, exit: 2, summary: 'the configuration is invalid' },
  CONFIG_NOT_FOUND: { http: 500, exit: 2, summary: 'the configuration file or a file it names is missing' },
  ENVIRONMENT_REFUSED: { http: 500, exit: 4, summary: 'the environment forbids this part or action' },
  // daemon start-up (src/main.ts)
  START_LISTEN_FAILED: {
    http: 500,
    exit: 3,
    summary: 'a port the daemon must listen on is taken by another process or not allowed',
  },
  START_FAILED: { http: 500, exit: 1, summary: 'a part of the daemon failed to start (the message names it)' },
  // store
  STORE_OPEN_FAILED: { http: 500, exit: 3, summary: 'the database could not be opened' },
  STORE_NEWER_SCHEMA: { http: 500, exit: 4, summary: 'the database was written by a newer omnipos' },
  STORE_PRAGMA_REFUSED: { http: 500, exit: 3, summary: 'the database refused a required setting' },
  STORE_MIGRATION_FAILED: { http: 500, exit: 1, summary: 'a schema migration failed and was rolled back' },
  STORE_CONFLICT: { http: 409, exit: 1, summary: 'a row changed under a transition or a key is taken' },
  STORE_SENSITIVE_DATA: { http: 500, exit: 1, summary: 'card data was about to be written to the database' },
  STATE_DIR_LOCKED: {
    http: 500,
    exit: 3,
    summary: 'another omnipos daemon holds the state directory (its lock); stop it first',
  },
  STORE_DAMAGED: {
    http: 503,
    exit: 3,
    summary:
      'the database failed its integrity check: it was set aside untouched, nothing is sold until a technician acts (omnipos diag)',
  },
  STORE_WRITE_FAILED: {
    http: 503,
    exit: 3,
    summary: 'the journal cannot commit (disk full or I/O error): no new payment starts until it can',
  },
  CLOCK_BEHIND: { http: 503, exit: 3, summary: 'the clock is behind the last identifier issued' },
  // pure codecs (crypto, emv, qr)
  CODEC_INVALID_INPUT: { http: 400, exit: 2, summary: 'a value does not decode' },
  CRYPTO_INVALID_KEY: { http: 400, exit: 2, summary: 'a key or key serial number is malformed' },
  PINBLOCK_INVALID: { http: 400, exit: 2, summary: 'a PIN block does not decode' },
  TLV_INVALID: { http: 400, exit: 2, summary: 'BER-TLV data is malformed' },
  QR_INVALID: { http: 400, exit: 2, summary: 'a QR code payload is malformed' },
  // engine (the API answers them by their API names: `api`)
  ENGINE_BUSY: { http: 409, exit: 4, summary: 'the terminal is busy with another payment', api: 'BUSY' },
  ENGINE_NOT_FOUND: { http: 404, exit: 2, summary: 'no such payment', api: 'NOT_FOUND' },
  ENGINE_NOT_ALLOWED: {
    http: 409,
    exit: 4,
    summary: 'the payment is not in a state that allows this',
    api: 'NOT_ALLOWED',
  },
  ENGINE_CANCELLED: { http: 409, exit: 4, summary: 'the operation was cancelled', api: 'NOT_ALLOWED' },
  // the cash register's API (src/api): what it says of the request itself
  UNAUTHORIZED: { http: 401, exit: 2, summary: 'a missing or wrong bearer token' },
  MISDIRECTED_REQUEST: {
    http: 421,
    exit: 2,
    summary: '`Host` names neither a loopback name nor the LAN name this terminal answers for (DNS rebinding)',
  },
  TOO_MANY_STREAMS: {
    http: 429,
    exit: 3,
    summary:
      'this client, or the terminal, holds the most event streams it may (8 per client address, 64 in all): close one, retry after `Retry-After`',
  },
  NOT_FOUND: { http: 404, exit: 2, summary: 'no such payment, void or route' },
  INVALID_FIELD: { http: 400, exit: 2, summary: 'a field at fault: `field` is its path (`payer.email`)' },
  INVALID_JSON: { http: 400, exit: 2, summary: 'the body is not JSON' },
  INVALID_BODY: { http: 400, exit: 2, summary: 'the body is not a JSON object, or the operation takes none' },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, exit: 2, summary: 'the body is not application/json' },
  PAYLOAD_TOO_LARGE: { http: 413, exit: 2, summary: 'the body is larger than the operation takes' },
  NOT_ACCEPTABLE: { http: 406, exit: 2, summary: '`Accept` does not take what the operation answers' },
  METHOD_NOT_ALLOWED: { http: 405, exit: 2, summary: 'the address does not take this method' },
  IDEMPOTENCY_KEY_REUSED: { http: 422, exit: 2, summary: 'the Idempotency-Key was used for another request' },
  BUSY: {
    http: 409,
    exit: 4,
    summary: 'another payment (card, wallet QR, Pix or void) holds the terminal: retry when it ends',
  },
  NOT_ALLOWED: { http: 409, exit: 4, summary: 'the payment (or the day) is not in a state that allows this' },
  NOT_AVAILABLE: {
    http: 409,
    exit: 4,
    summary: 'this daemon cannot do it (no e-commerce credentials for Pix, no merchant data for wallet QR, …)',
  },
  TYPING_NOT_ALLOWED: { http: 409, exit: 4, summary: 'the tables forbid typing the card number for this product' },
  // acquirer clients and sandbox host
  ACQUIRER_HTTP: { http: 502, exit: 3, summary: 'the acquirer answered with an error status' },
  ACQUIRER_UNKNOWN_OUTCOME: {
    http: 504,
    exit: 3,
    summary: 'the request may have reached the acquirer; its outcome is unknown',
  },
  ACQUIRER_UNREACHABLE: { http: 503, exit: 3, summary: 'the acquirer could not be reached; the request did not leave' },
  ACQUIRER_AUTH_FAILED: { http: 502, exit: 2, summary: 'the acquirer refused the credentials or the token' },
  ACQUIRER_BAD_RESPONSE: { http: 502, exit: 3, summary: 'the acquirer answered with a body that does not decode' },
  ACQUIRER_DECLINED: { http: 402, exit: 4, summary: 'the acquirer declined the payment' },
  CNP_DEBIT_NEEDS_AUTHENTICATION: {
    http: 422,
    exit: 4,
    summary: "a debit sale without the card needs the cardholder's authentication in a browser: refused",
  },
  CNP_HOST_REFUSED: {
    http: 422,
    exit: 4,
    summary:
      'the card-not-present host refused the capture, the void or saving the card (its published code in the message): nothing changed, the sale stays as it was',
  },
  CNP_NOT_OFFERED: {
    http: 501,
    exit: 4,
    summary:
      "the card-not-present backend's host does not offer this operation (the webservice 1.5 has no BIN lookup and schedules no recurrence)",
  },
  CNP_TYPING_CANCELLED: {
    http: 409,
    exit: 1,
    summary: 'the card was not typed on the pinpad (cancelled, timed out or aborted): nothing was sent',
  },
  CNP_TYPING_FAILED: {
    http: 503,
    exit: 3,
    summary: 'the pinpad could not take the typed card (its link, or a command it refused): nothing was sent',
  },
  CNP_CARD_REFUSED: {
    http: 422,
    exit: 4,
    summary:
      'the card typed on the pinpad was refused before sending (a wrong check digit, an expiry that is not a month, a product the BIN lookup does not support)',
  },
  CNP_BIN_LOOKUP_FAILED: {
    http: 503,
    exit: 3,
    summary:
      'the BIN lookup before a typed sale failed (refused or not answered): nothing was sent; retry or name the brand',
  },
  SANDBOX_REFUSED: { http: 400, exit: 4, summary: 'a sandbox-only tool was pointed at another host' },
  // pinpad link and driver (drivers/pinpad throws PinpadError with these same code strings; adapters and the CLI map it)
  PINPAD_DISCONNECTED: { http: 503, exit: 3, summary: 'the pinpad link is down (unplugged, port closed, no answer)' },
  PINPAD_TIMEOUT: { http: 504, exit: 3, summary: 'the pinpad did not acknowledge or answer in time' },
  PINPAD_NAK: { http: 502, exit: 3, summary: 'the pinpad link kept refusing packets (NAK or bad CRC three times)' },
  PINPAD_CANCELLED: { http: 409, exit: 1, summary: 'the pinpad command was cancelled' },
  PINPAD_STATUS: { http: 502, exit: 3, summary: 'the pinpad answered with a return code other than ST_OK' },
  PINPAD_PROTOCOL: { http: 502, exit: 3, summary: 'the pinpad answer does not decode' },
  PINPAD_INVALID_ARGUMENT: { http: 400, exit: 2, summary: 'a value does not fit the pinpad command layout' },
  PINPAD_NOT_FOUND: { http: 503, exit: 3, summary: 'no pinpad at the configured port, or it cannot be opened' },
  // the daemon (src/adapters/pinpad-device.ts): ready before the pinpad's first secure session is open
  PINPAD_OPENING: {
    http: 503,
    exit: 3,
    summary: "the pinpad's secure session is still opening (the daemon just started): retry in a few seconds",
  },
  // pinpad secure channel (drivers/pinpad/secure)
  PINPAD_UNSUPPORTED: {
    http: 503,
    exit: 3,
    summary: 'the pinpad does not support this (no secure OPN: not supported for card sales)',
  },
  // initialization tables (src/initialization)
  INIT_TABLE_INVALID: {
    http: 502,
    exit: 3,
    summary: 'an initialization table from the acquirer is malformed (the path names the field)',
  },
  INIT_RECORD_INVALID: {
    http: 502,
    exit: 3,
    summary: 'an ABECS §4.1 AID, CA key or revoked-certificate record is malformed',
  },
  INIT_NOT_INITIALIZED: {
    http: 503,
    exit: 4,
    summary: 'no initialization tables are in force, or the acquirer locked the terminal until it is initialized',
  },
  INIT_CARD_REFUSED: {
    http: 422,
    exit: 4,
    summary: 'the initialization tables do not allow this card, entry mode or option',
  },
  // receipt printer driver (drivers/printer throws PrinterError with these same code strings; adapters and the CLI map it)
  PRINTER_DISCONNECTED: {
    http: 503,
    exit: 3,
    summary: 'the printer link is down (closed, write failed, device removed)',
  },
  PRINTER_TIMEOUT: { http: 504, exit: 3, summary: 'the printer did not answer a status request in time' },
  PRINTER_PROTOCOL: { http: 502, exit: 3, summary: 'bytes from or for the printer do not decode' },
  PRINTER_INVALID_ARGUMENT: { http: 400, exit: 2, summary: 'a value does not fit a printer command' },
  PRINTER_UNSUPPORTED: { http: 400, exit: 2, summary: 'the printer model lacks the feature asked for' },
  PRINTER_NOT_FOUND: { http: 503, exit: 3, summary: 'no printer at the configured address, or it cannot be opened' },
  // voids (src/engine/void)
  VOID_NOT_ALLOWED: {
    http: 409,
    exit: 4,
    summary: 'the payment cannot be voided (its kind, its state or its product)',
  },
  VOID_OVER_LIMIT: {
    http: 422,
    exit: 4,
    summary: "the void amount exceeds what remains of the sale or the issuer's value or percentage limit",
  },
  VOID_TOO_LATE: { http: 422, exit: 4, summary: "the sale is older than the issuer's reversal limit in days" },
  VOID_CARD_MISMATCH: {
    http: 422,
    exit: 4,
    summary: "the card presented is not the sale's card (masked PAN, expiry, PAN sequence number)",
  },
  SUPERVISOR_REQUIRED: {
    http: 403,
    exit: 4,
    summary: 'a supervisor must authorize this (a valid supervisor token or password)',
  },
  SUPERVISOR_NOT_CONFIGURED: {
    http: 409,
    exit: 2,
    summary: 'no supervisor password is set for this terminal (omnipos supervisor password)',
  },
  // operations: the day, alarms, homologation, support (src/operations)
  OPERATIONS_INVALID_DATE: { http: 400, exit: 2, summary: 'a business date is not YYYY-MM-DD' },
  OPERATIONS_DAY_NOT_CLOSABLE: { http: 409, exit: 4, summary: 'the business day cannot be closed (it has not begun)' },
  OPERATIONS_SCRIPT_INVALID: {
    http: 400,
    exit: 2,
    summary: 'a homologation script is malformed (the path names the field)',
  },
  OPERATIONS_DAEMON_UNREACHABLE: { http: 503, exit: 3, summary: "the running daemon's API could not be reached" },
  // fleet: the MQTT broker (src/fleet, omnipos fleet)
  FLEET_BROKER_UNREACHABLE: {
    http: 503,
    exit: 3,
    summary: 'the fleet broker could not be reached or refused the connection',
  },
  FLEET_NO_ANSWER: { http: 504, exit: 3, summary: 'no terminal answered on the fleet broker in time' },
  // receipts
  RECEIPT_INVALID: { http: 400, exit: 2, summary: 'the data for a receipt is missing or malformed' },
  RECEIPT_PRINTER_NOT_READY: {
    http: 503,
    exit: 3,
    summary:
      'the receipt printer cannot print now (paper out, cover open, offline); a kiosk sells only with "receipt": false',
  },
  RECEIPT_NOT_AVAILABLE: {
    http: 409,
    exit: 4,
    summary: 'this payment has no receipt (it was never approved) or it is not from today',
  },
} as const satisfies Record<string, { http: number; exit: number; summary: string; api?: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The code the API answers for `code`: its API name where it has one (no engine code reaches the API). */
export function apiCodeOf(code: ErrorCode): ErrorCode {
  const entry = ERROR_CODES[code];
  return 'api' in entry ? entry.api : code;
}

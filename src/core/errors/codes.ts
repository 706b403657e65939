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
  // store
  STORE_OPEN_FAILED: { http: 500, exit: 3, summary: 'the database could not be opened' },
  STORE_NEWER_SCHEMA: { http: 500, exit: 4, summary: 'the database was written by a newer omnipos' },
  STORE_PRAGMA_REFUSED: { http: 500, exit: 3, summary: 'the database refused a required setting' },
  STORE_MIGRATION_FAILED: { http: 500, exit: 1, summary: 'a schema migration failed and was rolled back' },
  STORE_ID_SPACE_EXHAUSTED: { http: 503, exit: 3, summary: 'no more identifiers can be issued today' },
  // pure codecs (crypto, emv, qr)
  CODEC_INVALID_INPUT: { http: 400, exit: 2, summary: 'a value does not decode' },
  CRYPTO_INVALID_KEY: { http: 400, exit: 2, summary: 'a key or key serial number is malformed' },
  PINBLOCK_INVALID: { http: 400, exit: 2, summary: 'a PIN block does not decode' },
  TLV_INVALID: { http: 400, exit: 2, summary: 'BER-TLV data is malformed' },
  QR_INVALID: { http: 400, exit: 2, summary: 'a QR code payload is malformed' },
} as const satisfies Record<string, { http: number; exit: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

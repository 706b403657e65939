import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import {
  aesBdkTypeOf,
  deriveAesKeys,
  deriveTdesKeys,
  kcv,
  toBytes,
  toHex,
  AES_BDK_TYPES,
  AES_KEY_TYPES,
  type AesBdkType,
  type AesDukptKeys,
  type AesKeyType,
} from '../crypto/index.js';
import { printJson, type CliContext, type Command } from './context.js';

/**
 * The DUKPT schemes the technician tools know: `tdes` (X9.24-1), or AES DUKPT (X9.24-3) as `aes` (working keys of
 * the BDK's type unless `--key-type` says) or `aes128|aes192|aes256` (working keys of that type, from a BDK of any
 * AES size at least as strong).
 */
export type DukptScheme = 'tdes' | 'aes' | 'aes128' | 'aes192' | 'aes256';
const SCHEMES: readonly DukptScheme[] = ['tdes', 'aes', 'aes128', 'aes192', 'aes256'];

/** What `--scheme`, `--bdk-type` and `--key-type` settle: TDES DUKPT, or AES DUKPT with a BDK and working key type. */
export type DukptChoice = { scheme: 'tdes' } | { scheme: 'aes'; bdkType: AesBdkType; keyType: AesKeyType };

export interface DukptFlags {
  scheme?: string | undefined;
  'bdk-type'?: string | undefined;
  'key-type'?: string | undefined;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!allowed.includes(value as T)) {
    throw new OmniposError('INVALID_ARGUMENT', `${flag}: expected ${allowed.join(', ')}; got "${value}"`, {
      flag,
      value,
    });
  }
  return value as T;
}

/**
 * Settles the DUKPT scheme and key types from the flags and the BDK's size. `--bdk-type` (default: from the BDK's
 * 16, 24 or 32 bytes) must match the BDK; `--key-type` (tdes2, tdes3, aes128, aes192, aes256; default: the
 * `--scheme`'s AES size, else the BDK's type) may be any type no stronger than the BDK (X9.24-3 6.1.3).
 * `fallback` is the scheme when no flag names one.
 */
export function dukptChoiceOf(flags: DukptFlags, bdk: string, fallback: 'tdes' | 'aes' = 'tdes'): DukptChoice {
  const scheme = schemeOf(
    flags.scheme ?? (flags['bdk-type'] !== undefined || flags['key-type'] !== undefined ? 'aes' : fallback),
  );
  if (scheme === 'tdes') {
    if (flags['bdk-type'] !== undefined || flags['key-type'] !== undefined) {
      throw new OmniposError(
        'INVALID_ARGUMENT',
        '--bdk-type and --key-type are for AES DUKPT (X9.24-3); TDES DUKPT derives 2TDEA keys from a 2TDEA BDK',
        {
          scheme,
        },
      );
    }
    return { scheme };
  }
  const bytes = toBytes(bdk, { what: 'BDK', lengths: [16, 24, 32], code: 'CRYPTO_INVALID_KEY' });
  const bdkType =
    flags['bdk-type'] === undefined
      ? aesBdkTypeOf(bytes.length)
      : oneOf(flags['bdk-type'], AES_BDK_TYPES, '--bdk-type');
  const keyType =
    flags['key-type'] !== undefined
      ? oneOf(flags['key-type'], AES_KEY_TYPES, '--key-type')
      : scheme === 'aes'
        ? bdkType
        : aesKeyType(scheme);
  return { scheme: 'aes', bdkType, keyType };
}

/**
 * Refuses to go on unless the configuration (`--config`, OMNIPOS_CONFIG or the default) is the sandbox's:
 * tools that take keys never run against a homologation or production terminal (docs/configuration.md, "Environments").
 */
export function requireSandbox(ctx: CliContext, configPath: string | undefined, tool: string): void {
  const config = loadConfig({ ...(configPath ? { path: configPath } : {}), env: ctx.env });
  if (config.values.environment !== 'sandbox') {
    throw new OmniposError(
      'ENVIRONMENT_REFUSED',
      `${tool} takes keys and runs only in the sandbox environment; ${config.source} is "${config.values.environment}"`,
      { tool, environment: config.values.environment, source: config.source },
    );
  }
}

/** Reads `--scheme`, defaulting to `tdes`. */
export function schemeOf(value: string | undefined): DukptScheme {
  const scheme = (value ?? 'tdes') as DukptScheme;
  if (!SCHEMES.includes(scheme)) {
    throw new OmniposError('INVALID_ARGUMENT', `--scheme: expected ${SCHEMES.join(', ')}; got "${value}"`, {
      scheme: value,
    });
  }
  return scheme;
}

/** The working key type an AES scheme names (`aes` alone: AES-128, the smallest BDK's). */
export function aesKeyType(scheme: DukptScheme): AesKeyType {
  return scheme === 'aes256' ? 'aes256' : scheme === 'aes192' ? 'aes192' : 'aes128';
}

/**
 * AES DUKPT keys for a scheme (working keys of the scheme's type) or a settled choice (BDK and working key types
 * from `dukptChoiceOf`); a BDK not of its type's size, or weaker than the working keys, is CRYPTO_INVALID_KEY.
 */
export function aesKeysFor(scheme: DukptScheme | DukptChoice, bdk: string, ksn: string): AesDukptKeys {
  const choice = typeof scheme === 'string' ? dukptChoiceOf({ scheme }, bdk) : scheme;
  if (choice.scheme !== 'aes') throw new OmniposError('INVALID_ARGUMENT', 'aesKeysFor needs an AES scheme', {});
  return deriveAesKeys(bdk, ksn, { bdkType: choice.bdkType, keyType: choice.keyType });
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new OmniposError('INVALID_ARGUMENT', `${flag} is required`, { flag });
  return value;
}

/** Every key of one DUKPT transaction, upper-case hex, with check values. */
export function dukptReport(
  scheme: DukptScheme | DukptChoice,
  bdk: string,
  ksn: string,
): Record<string, string | number> {
  const choice = typeof scheme === 'string' ? dukptChoiceOf({ scheme }, bdk) : scheme;
  if (choice.scheme === 'tdes') {
    const k = deriveTdesKeys(bdk, ksn);
    return {
      scheme: 'tdes',
      ksn: k.ksn.hex,
      counter: k.ksn.counter,
      ipek: toHex(k.ipek),
      ipekKcv: kcv(k.ipek, { algorithm: 'tdes' }),
      transactionKey: toHex(k.transactionKey),
      pinKey: toHex(k.pinKey),
      dataKey: toHex(k.dataKeyRequest),
      dataKeyResponse: toHex(k.dataKeyResponse),
      macKey: toHex(k.macKeyRequest),
      macKeyResponse: toHex(k.macKeyResponse),
    };
  }
  const k = aesKeysFor(choice, bdk, ksn);
  return {
    scheme: 'aes',
    bdkType: k.bdkType,
    keyType: k.keyType,
    ksn: k.ksn.hex,
    counter: k.ksn.counter,
    ipek: toHex(k.initialKey),
    ipekKcv: kcv(k.initialKey, { algorithm: 'aes', length: 5 }),
    transactionKey: toHex(k.transactionKey),
    pinKey: toHex(k.pinKey),
    dataKey: toHex(k.dataKeyRequest),
    dataKeyResponse: toHex(k.dataKeyResponse),
    macKey: toHex(k.macKeyRequest),
    macKeyResponse: toHex(k.macKeyResponse),
  };
}

/** Prints a flat record as JSON or as aligned `name  value` lines. */
export function printRecord(ctx: CliContext, record: Record<string, unknown>, json: boolean | undefined): void {
  if (json) {
    printJson(ctx, record);
    return;
  }
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  for (const [k, v] of Object.entries(record)) ctx.out(`${k.padEnd(width)}  ${String(v)}\n`);
}

/** `omnipos tools dukpt`: the keys a BDK and KSN give, for a technician checking a pinpad's injection. */
export const toolsDukpt: Command = {
  path: ['tools', 'dukpt'],
  summary: 'derive the DUKPT keys of a BDK and KSN (sandbox only)',
  usage: `omnipos tools dukpt --bdk HEX --ksn HEX [--scheme tdes|aes|aes128|aes192|aes256]
       [--bdk-type aes128|aes192|aes256] [--key-type tdes2|tdes3|aes128|aes192|aes256] [--json] [--config PATH]

Derives the initial key (ipek), the transaction key and its PIN, data and MAC keys (request and
response) for one KSN: TDES per ANSI X9.24-1:2009 (BDK 16 bytes, KSN 10 bytes, e.g. the acquirer's
FFFFF + KSI + device + counter) or AES per X9.24-3:2017 (BDK 16, 24 or 32 bytes, KSN 12 bytes).
In AES DUKPT the working keys' type is independent of the BDK's: --key-type (or --scheme aes128,
aes192, aes256) names it, and may be any type no stronger than the BDK (an AES-128 BDK gives 2TDEA,
3TDEA or AES-128 keys; an AES-256 BDK any); the BDK's type comes from its size, or --bdk-type,
which must match it. --bdk-type or --key-type alone means AES DUKPT. Keys print as upper-case hex.
Runs only when the configuration's environment is "sandbox". A malformed BDK or KSN, a counter with
too many one-bits, or a working key stronger than the BDK exits 2 with the reason.

Examples:
  omnipos tools dukpt --bdk 0123456789ABCDEFFEDCBA9876543210 --ksn FFFF9876543210E00001
  omnipos tools dukpt --bdk-type aes256 --key-type aes128 --bdk HEX64 --ksn 123456789012345600000001`,
  run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        bdk: { type: 'string' },
        ksn: { type: 'string' },
        scheme: { type: 'string' },
        'bdk-type': { type: 'string' },
        'key-type': { type: 'string' },
        json: { type: 'boolean' },
        config: { type: 'string' },
      },
      strict: true,
    });
    schemeOf(values.scheme);
    const bdk = required(values.bdk, '--bdk');
    const ksn = required(values.ksn, '--ksn');
    requireSandbox(ctx, values.config, 'omnipos tools dukpt');
    printRecord(ctx, dukptReport(dukptChoiceOf(values, bdk), bdk, ksn), values.json);
    return Promise.resolve(0);
  },
};

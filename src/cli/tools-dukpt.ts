import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/errors/index.js';
import { deriveAesKeys, deriveTdesKeys, kcv, toBytes, toHex, type AesDukptKeys, type AesKeyType } from '../crypto/index.js';
import { printJson, type CliContext, type Command } from './context.js';

/** The DUKPT schemes the technician tools know. */
export type DukptScheme = 'tdes' | 'aes128' | 'aes256';
const SCHEMES: readonly DukptScheme[] = ['tdes', 'aes128', 'aes256'];

/**
 * Refuses to go on unless the configuration (`--config`, OMNIPOS_CONFIG or the default) is the sandbox's:
 * tools that take keys never run against a homologation or production terminal (DESIGN.md, "Environments").
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
    throw new OmniposError('INVALID_ARGUMENT', `--scheme: expected ${SCHEMES.join(', ')}; got "${value}"`, { scheme: value });
  }
  return scheme;
}

/** The key type of an AES scheme. */
export function aesKeyType(scheme: DukptScheme): AesKeyType {
  return scheme === 'aes256' ? 'aes256' : 'aes128';
}

/** AES DUKPT keys for a scheme; the BDK must be the scheme's size (16 bytes for aes128, 32 for aes256). */
export function aesKeysFor(scheme: DukptScheme, bdk: string, ksn: string): AesDukptKeys {
  const bytes = toBytes(bdk, { what: 'BDK', lengths: [scheme === 'aes256' ? 32 : 16], code: 'CRYPTO_INVALID_KEY' });
  return deriveAesKeys(bytes, ksn, aesKeyType(scheme));
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new OmniposError('INVALID_ARGUMENT', `${flag} is required`, { flag });
  return value;
}

/** Every key of one DUKPT transaction, upper-case hex, with check values. */
export function dukptReport(scheme: DukptScheme, bdk: string, ksn: string): Record<string, string | number> {
  if (scheme === 'tdes') {
    const k = deriveTdesKeys(bdk, ksn);
    return {
      scheme,
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
  const k = aesKeysFor(scheme, bdk, ksn);
  return {
    scheme,
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
  usage: `omnipos tools dukpt --bdk HEX --ksn HEX [--scheme tdes|aes128|aes256] [--json] [--config PATH]

Derives the initial key (ipek), the transaction key and its PIN, data and MAC keys (request and
response) for one KSN: TDES per ANSI X9.24-1:2009 (BDK 16 bytes, KSN 10 bytes, e.g. the acquirer's
FFFFF + KSI + device + counter) or AES per X9.24-3:2017 (BDK 16 or 32 bytes, KSN 12 bytes).
Keys print as upper-case hex. Runs only when the configuration's environment is "sandbox".
A malformed BDK or KSN, or a counter with more than ten one-bits, exits 2 with the reason.

Example:
  omnipos tools dukpt --bdk 0123456789ABCDEFFEDCBA9876543210 --ksn FFFF9876543210E00001`,
  run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        bdk: { type: 'string' },
        ksn: { type: 'string' },
        scheme: { type: 'string' },
        json: { type: 'boolean' },
        config: { type: 'string' },
      },
      strict: true,
    });
    const scheme = schemeOf(values.scheme);
    const bdk = required(values.bdk, '--bdk');
    const ksn = required(values.ksn, '--ksn');
    requireSandbox(ctx, values.config, 'omnipos tools dukpt');
    printRecord(ctx, dukptReport(scheme, bdk, ksn), values.json);
    return Promise.resolve(0);
  },
};

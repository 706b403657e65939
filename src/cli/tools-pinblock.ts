import { parseArgs } from 'node:util';
import { OmniposError } from '../core/index.js';
import {
  decodePinBlock,
  decryptPin,
  deriveTdesKeys,
  encodePinBlock,
  encryptPin,
  toHex,
  type PinBlockFormat,
} from '../crypto/index.js';
import type { Command } from './context.js';
import { aesKeysFor, dukptChoiceOf, printRecord, required, requireSandbox, type DukptFlags } from './tools-dukpt.js';

const FORMATS: readonly PinBlockFormat[] = [0, 1, 3, 4];

function formatOf(value: string | undefined): PinBlockFormat {
  const f = Number(value ?? '0') as PinBlockFormat;
  if (!/^\d$/.test(value ?? '0') || !FORMATS.includes(f)) {
    throw new OmniposError('INVALID_ARGUMENT', `--format: expected 0, 1, 3 or 4; got "${value}"`, { format: value });
  }
  return f;
}

interface KeyFlags extends DukptFlags {
  key?: string | undefined;
  bdk?: string | undefined;
  ksn?: string | undefined;
}

/**
 * The PIN key from `--key`, or from `--bdk` and `--ksn` by DUKPT; undefined when neither is given. Formats 0, 1
 * and 3 take a TDES PIN key (TDES DUKPT, or AES DUKPT with --key-type tdes2 or tdes3), format 4 an AES one.
 */
function pinKeyOf(
  flags: KeyFlags,
  format: PinBlockFormat,
): { key: Buffer | string; ksn?: string; keyType?: string } | undefined {
  if (flags.key !== undefined && (flags.bdk !== undefined || flags.ksn !== undefined)) {
    throw new OmniposError('INVALID_ARGUMENT', 'give either --key or --bdk with --ksn, not both', {});
  }
  if (flags.key !== undefined) {
    if (flags['bdk-type'] !== undefined || flags['key-type'] !== undefined) {
      throw new OmniposError('INVALID_ARGUMENT', '--bdk-type and --key-type go with --bdk and --ksn, not --key', {});
    }
    return { key: flags.key };
  }
  if (flags.bdk === undefined && flags.ksn === undefined) return undefined;
  const bdk = required(flags.bdk, '--bdk');
  const ksn = required(flags.ksn, '--ksn');
  const choice = dukptChoiceOf(flags, bdk, format === 4 ? 'aes' : 'tdes');
  const keyType = choice.scheme === 'tdes' ? 'tdes2' : choice.keyType;
  if (keyType.startsWith('tdes') !== (format !== 4)) {
    const needs =
      format === 4
        ? 'an AES PIN key (--key-type aes128, aes192 or aes256)'
        : 'a TDES PIN key (--scheme tdes, or --key-type tdes2 or tdes3)';
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `format ${format} needs ${needs}; the DUKPT PIN key would be ${keyType}`,
      { format, keyType },
    );
  }
  if (choice.scheme === 'tdes') {
    const k = deriveTdesKeys(bdk, ksn);
    return { key: k.pinKey, ksn: k.ksn.hex };
  }
  const k = aesKeysFor(choice, bdk, ksn);
  return { key: k.pinKey, ksn: k.ksn.hex, keyType };
}

const KEY_OPTIONS = {
  key: { type: 'string' },
  bdk: { type: 'string' },
  ksn: { type: 'string' },
  scheme: { type: 'string' },
  'bdk-type': { type: 'string' },
  'key-type': { type: 'string' },
  format: { type: 'string' },
  pan: { type: 'string' },
  json: { type: 'boolean' },
  config: { type: 'string' },
} as const;

/** `omnipos tools pinblock encode`: an ISO 9564-1 PIN block, clear and (with a key) encrypted. */
export const toolsPinblockEncode: Command = {
  path: ['tools', 'pinblock', 'encode'],
  summary: 'build an ISO 9564-1 PIN block (formats 0, 1, 3, 4), optionally encrypted (keys: sandbox only)',
  usage: `omnipos tools pinblock encode --pin PIN --pan PAN [--format 0|1|3|4] [--random HEX]
       [--key HEX | --bdk HEX --ksn HEX [--scheme tdes|aes|aes128|aes192|aes256]
        [--bdk-type aes128|aes192|aes256] [--key-type tdes2|tdes3|aes128|aes192|aes256]] [--json] [--config PATH]

Prints clearBlock (format 4: the plaintext PIN field) and, with a key, encryptedPinBlock: under --key
(TDES for formats 0, 1, 3; AES for 4) or under the DUKPT PIN key of --bdk and --ksn: TDES DUKPT for
formats 0, 1, 3 and AES DUKPT for 4 by default; an AES BDK gives a TDES PIN key for formats 0, 1, 3
with --key-type tdes2 or tdes3, and a PIN key of another AES size with --key-type (see tools dukpt).
Format 4 takes a PAN of 1 to 19 digits (shorter than 12: zero-padded on the left, M = 0; ISO
9564-1 9.4.2), formats 0 and 3 one of 8 to 19. --random fixes the
random fill (formats 1 and 3: the nibbles after the PIN, A-F for 3; format 4: the 16 nibbles of its
second half) to reproduce published examples. With a key, runs only in the sandbox environment.

Example:
  omnipos tools pinblock encode --pin 1234 --pan 4761730000000060`,
  run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { ...KEY_OPTIONS, pin: { type: 'string' }, random: { type: 'string' } },
      strict: true,
    });
    const format = formatOf(values.format);
    const pin = required(values.pin, '--pin');
    const pan = format === 1 ? values.pan : required(values.pan, '--pan');
    const input = {
      format,
      pin,
      ...(pan !== undefined ? { pan } : {}),
      ...(values.random !== undefined ? { fill: values.random } : {}),
    };
    const takesKey = values.key !== undefined || values.bdk !== undefined || values.ksn !== undefined;
    if (takesKey) requireSandbox(ctx, values.config, 'omnipos tools pinblock encode');
    const key = pinKeyOf(values, format);
    const record: Record<string, string | number> = { format };
    if (key) {
      const out = encryptPin({ ...input, key: key.key });
      record.clearBlock = toHex(out.clearBlock);
      record.encryptedPinBlock = toHex(out.encryptedPinBlock);
      if (key.ksn) record.ksn = key.ksn;
      if (key.keyType) record.keyType = key.keyType;
    } else {
      record.clearBlock = toHex(encodePinBlock(input));
    }
    printRecord(ctx, record, values.json);
    return Promise.resolve(0);
  },
};

/** `omnipos tools pinblock decode`: the PIN in a clear or encrypted PIN block, or the reason it is invalid. */
export const toolsPinblockDecode: Command = {
  path: ['tools', 'pinblock', 'decode'],
  summary: 'read the PIN of an ISO 9564-1 PIN block, clear or encrypted (keys: sandbox only)',
  usage: `omnipos tools pinblock decode --block HEX --pan PAN [--format 0|1|3|4]
       [--key HEX | --bdk HEX --ksn HEX [--scheme tdes|aes|aes128|aes192|aes256]
        [--bdk-type aes128|aes192|aes256] [--key-type tdes2|tdes3|aes128|aes192|aes256]] [--json] [--config PATH]

Prints pin. Without a key, --block is the clear block (format 4: the plaintext PIN field); with one,
the encrypted block; --bdk-type and --key-type as in encode. An invalid block (control field, PIN
length, non-decimal digit, fill, size)
exits 2 with the reason. With a key, runs only in the sandbox environment.

Example:
  omnipos tools pinblock decode --block 041223CFFFFFFFF9 --pan 4761730000000060`,
  run(args, ctx) {
    const { values } = parseArgs({ args, options: { ...KEY_OPTIONS, block: { type: 'string' } }, strict: true });
    const format = formatOf(values.format);
    const block = required(values.block, '--block');
    const pan = format === 1 ? values.pan : required(values.pan, '--pan');
    const takesKey = values.key !== undefined || values.bdk !== undefined || values.ksn !== undefined;
    if (takesKey) requireSandbox(ctx, values.config, 'omnipos tools pinblock decode');
    const key = pinKeyOf(values, format);
    const base = { format, ...(pan !== undefined ? { pan } : {}) };
    const pin = key ? decryptPin({ ...base, block, key: key.key }) : decodePinBlock(block, base);
    printRecord(ctx, { format, pin }, values.json);
    return Promise.resolve(0);
  },
};

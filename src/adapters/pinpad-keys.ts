import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { isPinpadError, terminalKeyFromPem, type TerminalKey } from '../../drivers/pinpad/index.js';
import { OmniposError } from '../core/index.js';
import { createSecretFileOnce, writeSecretTemp } from '../store/index.js';

/** The terminal's RSA key for the pinpad's secure OPN, in the state directory. */
export const PINPAD_KEY_FILE = 'pinpad-terminal-key.pem';

/** The terminal key is replaced at the next start once its file is older than this many days. */
export const PINPAD_KEY_MAX_AGE_DAYS = 90;

/** Where the key came from: made now (first start), replaced now (rotated), or read back. */
export interface PinpadKeyFile {
  readonly key: TerminalKey;
  readonly file: string;
  readonly created: boolean;
  readonly rotated?: boolean;
}

function generatePem(): string {
  // OPN_MODLEN is fixed at 256 bytes (§3.2.2); 65537 fits OPN_EXP (at most 3 bytes).
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

function readKey(file: string): TerminalKey {
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) {
    throw new OmniposError(
      'CRYPTO_INVALID_KEY',
      `${file}: the pinpad key is readable by others (mode ${mode.toString(8)}); chmod 600 it, or delete it to make a new one`,
      {
        file,
        mode: mode.toString(8),
      },
    );
  }
  try {
    return terminalKeyFromPem(readFileSync(file, 'utf8'));
  } catch (e) {
    if (isPinpadError(e))
      throw new OmniposError(
        'CRYPTO_INVALID_KEY',
        `${file}: ${e.message}; delete it to make a new one`,
        { file },
        { cause: e },
      );
    throw e;
  }
}

/** Replaces the key in `file` by a new one, atomically (temp file 0600, fsync, rename over it). */
function replace(file: string, pem: string): void {
  renameSync(writeSecretTemp(file, pem), file);
}

/**
 * A new terminal key in place of the state directory's (`omnipos pinpad rotate-key`, and the
 * schedule of {@link loadPinpadKey}): the pinpad learns it at the next secure OPN, since each OPN
 * sends the terminal's public key and the pinpad wraps a fresh KSEC under it.
 */
export function rotatePinpadKey(stateDir: string): PinpadKeyFile {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = path.join(stateDir, PINPAD_KEY_FILE);
  replace(file, generatePem());
  return { key: readKey(file), file, created: false, rotated: true };
}

/**
 * The terminal's RSA key pair (2048 bits, e = 65537) for the pinpad's secure channel: made at
 * first start in `stateDir` as a PKCS#8 PEM file of mode 0600 (directory 0700), read back after,
 * and replaced once older than `maxAgeDays` (default {@link PINPAD_KEY_MAX_AGE_DAYS}, by its file's time).
 * A file others can read, or one that is not such a key, is refused with CRYPTO_INVALID_KEY. The
 * private key leaves this function only inside the driver's TerminalKey, which never prints it.
 */
export function loadPinpadKey(stateDir: string, o: { now?: Date; maxAgeDays?: number } = {}): PinpadKeyFile {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = path.join(stateDir, PINPAD_KEY_FILE);
  let created = false;
  try {
    const age = (o.now ?? new Date()).getTime() - statSync(file).mtimeMs;
    if (age > (o.maxAgeDays ?? PINPAD_KEY_MAX_AGE_DAYS) * 86_400_000) return rotatePinpadKey(stateDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    created = createSecretFileOnce(file, generatePem());
  }
  return { key: readKey(file), file, created };
}

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { isPinpadError, terminalKeyFromPem, type TerminalKey } from '../../drivers/pinpad/index.js';
import { OmniposError } from '../core/index.js';

/** The terminal's RSA key for the pinpad's secure OPN, in the state directory. */
export const PINPAD_KEY_FILE = 'pinpad-terminal-key.pem';

/** Where the key came from: made now (first start) or read back. */
export interface PinpadKeyFile {
  readonly key: TerminalKey;
  readonly file: string;
  readonly created: boolean;
}

function generatePem(): string {
  // OPN_MODLEN is fixed at 256 bytes (§3.2.2); 65537 fits OPN_EXP (at most 3 bytes).
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** Writes `pem` to `file` only if it does not exist yet (two starts at once keep one key): temp file 0600, fsync, link. */
function createOnce(file: string, pem: string): boolean {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, pem);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
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

/**
 * The terminal's RSA key pair (2048 bits, e = 65537) for the pinpad's secure channel: made at
 * first start in `stateDir` as a PKCS#8 PEM file of mode 0600 (directory 0700), read back after.
 * A file others can read, or one that is not such a key, is refused with CRYPTO_INVALID_KEY. The
 * private key leaves this function only inside the driver's TerminalKey, which never prints it.
 */
export function loadPinpadKey(stateDir: string): PinpadKeyFile {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = path.join(stateDir, PINPAD_KEY_FILE);
  let created = false;
  try {
    statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    created = createOnce(file, generatePem());
  }
  return { key: readKey(file), file, created };
}

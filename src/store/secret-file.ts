import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Writes `text` to a new temporary file beside `file` (mode 0600, fsynced) and answers its path. */
export function writeSecretTemp(file: string, text: string): string {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/**
 * Writes `text` to `file` only if it does not exist yet, as a secret (mode 0600): a temporary file,
 * fsync, a hard link to its name (two starts at once keep one), fsync of the folder. Answers whether
 * this call made it; a file already there is left as it is.
 */
export function createSecretFileOnce(file: string, text: string): boolean {
  const tmp = writeSecretTemp(file, text);
  let made: boolean;
  try {
    linkSync(tmp, file);
    made = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    made = false;
  } finally {
    unlinkSync(tmp);
  }
  const dir = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return made;
}

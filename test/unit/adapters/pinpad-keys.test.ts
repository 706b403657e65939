import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINPAD_KEY_FILE, loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();
const fresh = (): string => path.join(tempDir('omnipos-keys-'), 'state');

describe('the terminal key file (src/adapters/pinpad-keys.ts)', () => {
  it('is made at first start (2048 bits, e = 65537), mode 0600 in a 0700 directory, and read back unchanged after', () => {
    const dir = fresh();
    const first = loadPinpadKey(dir);
    expect(first.created).toBe(true);
    expect(first.file).toBe(path.join(dir, PINPAD_KEY_FILE));
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(first.key.modulus.length).toBe(256);
    expect(Buffer.from(first.key.publicExponent).toString('hex')).toBe('010001');
    expect(readFileSync(first.file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const pem = readFileSync(first.file, 'utf8');
    const again = loadPinpadKey(dir);
    expect(again.created).toBe(false);
    expect(again.key.modulus).toEqual(first.key.modulus);
    expect(readFileSync(first.file, 'utf8')).toBe(pem);
    expect(readdirSync(dir)).toEqual([PINPAD_KEY_FILE]); // no temporary file left
  });

  it('refuses a key file others can read, and one that is not a key, saying what to do', () => {
    const dir = fresh();
    const { file } = loadPinpadKey(dir);
    chmodSync(file, 0o644);
    const e1 = (() => {
      try {
        return loadPinpadKey(dir);
      } catch (e) {
        return e;
      }
    })();
    expect(isOmniposError(e1) && e1.code).toBe('CRYPTO_INVALID_KEY');
    expect((e1 as Error).message).toMatch(/readable by others .*chmod 600/);
    writeFileSync(file, 'garbage', { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(() => loadPinpadKey(dir)).toThrow(/delete it to make a new one/);
  });
});

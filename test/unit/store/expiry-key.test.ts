import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExpiryKey, ensureExpiryKey } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('the terminal’s expiry key', () => {
  it('is made once (32 random bytes, 0600), kept across starts and set back to 0600', () => {
    const dir = tempDir('omnipos-expiry-key-');
    const first = ensureExpiryKey(dir);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(first.file, 'utf8').trim(), 'base64url')).toHaveLength(32);
    chmodSync(first.file, 0o644);
    const again = ensureExpiryKey(dir);
    expect(statSync(again.file).mode & 0o777).toBe(0o600);
    expect(again.key.mac('3012')).toBe(first.key.mac('3012'));
    expect(ensureExpiryKey(tempDir('omnipos-expiry-key-')).key.mac('3012')).not.toBe(first.key.mac('3012'));
  });

  it('a file that holds no 32-byte key is refused, never replaced (the stored sales would no longer match)', () => {
    const dir = tempDir('omnipos-expiry-key-');
    writeFileSync(path.join(dir, 'expiry-key'), 'short\n', { mode: 0o600 });
    expect(() => ensureExpiryKey(dir)).toThrow(expect.objectContaining({ code: 'STORE_DAMAGED' }));
    expect(readFileSync(path.join(dir, 'expiry-key'), 'utf8')).toBe('short\n');
  });

  it('matches an expiry to its hash only under the same key; a key shorter than 32 bytes is refused', () => {
    const key = new ExpiryKey(Buffer.alloc(32, 1));
    const mac = key.mac('0129');
    expect(mac).toMatch(/^[\w-]{43}$/);
    expect(mac).not.toContain('0129');
    expect(key.matches('0129', mac)).toBe(true);
    expect(key.matches('0229', mac)).toBe(false);
    expect(key.matches('0129', mac.slice(1))).toBe(false);
    expect(new ExpiryKey(Buffer.alloc(32, 2)).matches('0129', mac)).toBe(false);
    expect(() => new ExpiryKey(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

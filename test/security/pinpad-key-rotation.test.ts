import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPinpadKey, PINPAD_KEY_FILE, PINPAD_KEY_MAX_AGE_DAYS } from '../../src/adapters/index.js';
import { runCliCaptured } from '../helpers/cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';

/**
 * The terminal's RSA key for the pinpad's secure channel is not kept for ever (issue 31): the daemon
 * replaces it when it is older than its schedule, and `omnipos pinpad rotate-key` replaces it at once;
 * the new key is a 0600 file, and the old one is gone.
 */
const tempDir = useTempDirs();
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('the pinpad terminal key: rotation', () => {
  it(`kept while younger than ${PINPAD_KEY_MAX_AGE_DAYS} days, replaced at the start after`, () => {
    const dir = tempDir('omnipos-sec-key-');
    const first = loadPinpadKey(dir);
    expect(first.created).toBe(true);
    expect(hex(loadPinpadKey(dir).key.modulus)).toBe(hex(first.key.modulus));
    const old = new Date(Date.now() - (PINPAD_KEY_MAX_AGE_DAYS + 1) * 86_400_000);
    utimesSync(first.file, old, old);
    const next = loadPinpadKey(dir);
    expect(next.rotated).toBe(true);
    expect(hex(next.key.modulus)).not.toBe(hex(first.key.modulus));
    expect(statSync(next.file).mode & 0o777).toBe(0o600);
    expect(hex(loadPinpadKey(dir).key.modulus)).toBe(hex(next.key.modulus));
  });

  it('omnipos pinpad rotate-key replaces it at once', async () => {
    const dir = tempDir('omnipos-sec-key-cli-');
    const before = loadPinpadKey(dir).key.modulus;
    const r = await runCliCaptured(['pinpad', 'rotate-key'], { OMNIPOS_STATE_DIR: dir, OMNIPOS_CONFIG: '' });
    expect([r.code, r.err]).toEqual([0, '']);
    expect(r.out).toContain(path.join(dir, PINPAD_KEY_FILE));
    expect(hex(loadPinpadKey(dir).key.modulus)).not.toBe(hex(before));
  });
});

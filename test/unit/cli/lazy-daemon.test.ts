import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Fast start of the daemon: loading its composition root (src/main.ts, what `omnipos run` imports)
 * loads only the packages every start uses. node-forge (the pinpad's RSA key, the sandbox's wallet),
 * mqtt (fleet telemetry, when configured), qrcode, pngjs and jsqr (QR codes), serialport and node-hid
 * (the configured pinpad's transport) load at their first use; the embedded sandbox host only when
 * the configuration embeds it. (Figures: npm run bench:startup.)
 */

const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-daemon-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loaded(): { src: string[]; packages: string[] } {
  const log = path.join(dir, 'main.log');
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/unit/cli/record-imports.ts',
      '--input-type=module',
      '-e',
      "await import('./src/main.ts');",
    ],
    { env: { ...process.env, RECORD_IMPORTS_LOG: log }, encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const root = new URL('../../../', import.meta.url).href;
  const src = [
    ...new Set(
      urls.filter((u) => u.startsWith(root) && !u.includes('/node_modules/')).map((u) => u.slice(root.length)),
    ),
  ].sort();
  const packages = [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))]
    .filter((p) => !['tsx', 'get-tsconfig', 'esbuild'].includes(p))
    .sort();
  return { src, packages };
}

describe('the daemon loads at start only what every start uses', () => {
  it('no node-forge, mqtt, QR, serial or HID package, and none of the sandbox host but its address table', () => {
    const r = loaded();
    expect(r.src).toContain('src/main.ts');
    for (const later of [
      'node-forge',
      'mqtt',
      'qrcode',
      'pngjs',
      'jsqr',
      'serialport',
      '@serialport/stream',
      'node-hid',
      'usb',
      'koffi',
    ]) {
      expect(r.packages, later).not.toContain(later);
    }
    expect(r.src.filter((f) => f.startsWith('src/sandbox/'))).toEqual(['src/sandbox/addresses.ts']);
  }, 120_000);
});

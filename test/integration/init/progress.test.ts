import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { barLine, createProgress } from '../../../src/cli/progress.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

/**
 * Progress of `omnipos init` (download, validate, store by BIN range, pinpad load by TLR record):
 * a bar redrawn in place on a terminal (a real pseudo-terminal, by util-linux `script`), plain
 * lines when the output is a pipe, and `--json` unchanged (one object, no bar).
 */

const tempDir = useTempDirs();
const ESC = '\u001b';

/** The default (sandbox) configuration on a fresh state directory; the embedded sandbox on a free port. */
const envFor = (state: string): NodeJS.ProcessEnv => ({
  ...process.env,
  OMNIPOS_STATE_DIR: state,
  OMNIPOS_CONFIG: '',
  OMNIPOS_SANDBOX__PORT: '0',
});

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

const initArgs = omniposArgs(['init']);

describe('omnipos init shows its progress', () => {
  it('not a terminal: plain lines only (each "• "), the store and the pinpad load by quarters, no carriage return or escape', async () => {
    const r = await run(process.execPath, initArgs, envFor(tempDir()));
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('\r');
    expect(r.out).not.toContain(ESC);
    const lines = r.out.trim().split('\n');
    expect(lines.every((l) => l.startsWith('• '))).toBe(true);
    const store = lines.filter((l) => l.startsWith('• store: BIN ranges written: '));
    expect(store.length).toBeGreaterThanOrEqual(2);
    expect(store.length).toBeLessThanOrEqual(5);
    expect(store.at(-1)).toMatch(/: (\d+)\/\1$/);
    const tlr = lines.filter((l) => /^• pinpad: TLR records loaded \(network \d\d\): \d+\/\d+$/.test(l));
    expect(tlr.length).toBeGreaterThanOrEqual(2);
    expect(tlr.at(-1)).toMatch(/: (\d+)\/\1$/);
    expect(lines.at(-1)).toBe('• initialization complete');
  }, 120_000);

  it('on a terminal (a pseudo-terminal): a bar redrawn in place up to 100%, then the step lines go on', async () => {
    const command = [process.execPath, ...initArgs].map((a) => `'${a}'`).join(' ');
    const r = await run('script', ['-qefc', command, '/dev/null'], envFor(tempDir()));
    expect(r.code, r.out + r.err).toBe(0);
    // \r ESC[K then the bar: redrawn on one line.
    expect(r.out).toContain(`\r${ESC}[K[`);
    expect(r.out).toMatch(/\[#+\] (\d+)\/\1 100% {2}store: BIN ranges written/);
    expect(r.out).toMatch(/\[#+\] (\d+)\/\1 100% {2}pinpad: TLR records loaded \(network \d\d\)/);
    expect(r.out).toMatch(/\[#*-+\] +\d+\/\d+ +\d+% {2}pinpad: TLR records loaded/); // drawn before it was full
    expect(r.out).toContain('• initialization complete');
    // The plain quarter lines are for pipes only.
    expect(r.out).not.toMatch(/• store: BIN ranges written: \d/);
  }, 120_000);

  it('--json on a terminal: the one object, no bar', async () => {
    const command = [process.execPath, ...initArgs, '--json'].map((a) => `'${a}'`).join(' ');
    const r = await run('script', ['-qefc', command, '/dev/null'], envFor(tempDir()));
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).not.toContain(ESC);
    const report = JSON.parse(r.out.replace(/\r\n/g, '\n')) as { installed: boolean; pinpad: string };
    expect(report).toMatchObject({ installed: true, pinpad: 'loaded' });
  }, 120_000);
});

describe('the progress writer', () => {
  it('fits the bar to the width and never passes 100%', () => {
    expect(barLine('store', 5, 10, 80)).toBe(`[${'#'.repeat(20)}${'-'.repeat(20)}]  5/10  50%  store`);
    expect(barLine('store', 12, 10, 80)).toMatch(/^\[#{40}\] 12\/10 100%/);
    expect(barLine('a long label '.repeat(10), 1, 3, 40).length).toBeLessThan(40);
    expect(barLine('nothing to do', 0, 0, 80)).toMatch(/100%/);
  });

  it('plain mode: one line per quarter, again for a second piece of work with the same label; quiet prints nothing', () => {
    let out = '';
    const p = createProgress({ write: (t) => (out += t), tty: false });
    for (let i = 0; i <= 8; i++) p.update('load', i, 8);
    for (let i = 0; i <= 2; i++) p.update('load', i, 2);
    expect(out.split('\n').filter(Boolean)).toEqual([
      '• load: 0/8',
      '• load: 2/8',
      '• load: 4/8',
      '• load: 6/8',
      '• load: 8/8',
      '• load: 0/2',
      '• load: 1/2',
      '• load: 2/2',
    ]);
    let quiet = '';
    const q = createProgress({ write: (t) => (quiet += t), tty: true, quiet: true });
    q.step('x');
    q.update('load', 1, 2);
    expect(quiet).toBe('');
  });

  it('terminal mode: a step ends the bar on its own line first', () => {
    let out = '';
    const p = createProgress({ write: (t) => (out += t), tty: true, columns: 60 });
    p.update('load', 1, 4);
    p.step('next');
    expect(out).toBe(`\r${ESC}[K${barLine('load', 1, 4, 60)}\n• next\n`);
  });
});

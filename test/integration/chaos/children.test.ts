import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../../src/core/index.js';

/**
 * A chaos run stopped by a signal (a test's time limit, Ctrl-C) kills its daemons and pinpads
 * (test/chaos/children.ts): before, they were orphaned and kept running.
 */
const SCRIPT = `
import { spawn } from 'node:child_process';
import { killChildrenOnStop, track } from './test/chaos/children.ts';
killChildrenOnStop();
const c = track(spawn('sleep', ['300'], { stdio: 'ignore' }));
console.log(JSON.stringify({ child: c.pid }));
setInterval(() => {}, 1000);
`;

describe('the chaos run stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} kills its children and ends with ${code}`, async () => {
      const run = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      const pid = await new Promise<number>((resolve, reject) => {
        run.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          const m = /"child":(\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        run.once('exit', (c) => reject(new Error(`ended early (${String(c)})`)));
      });
      expect(processAlive(pid)).toBe(true);
      const exited = new Promise<number | null>((r) => run.once('exit', (c) => r(c)));
      run.kill(signal);
      expect(await exited).toBe(code);
      // the child was sent SIGKILL before the run exited; the kernel reaps it at once
      for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 20));
      expect(processAlive(pid)).toBe(false);
    }, 60_000);
  }
});

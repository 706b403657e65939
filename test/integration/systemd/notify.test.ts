import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * The notify protocol as omnipos.service runs it (Type=notify, NotifyAccess=all, WatchdogSec):
 * the real daemon process, the real systemd-notify binary it runs, and in place of PID 1 a
 * datagram socket that prints what arrives (Node has no datagram sockets; Python does). The
 * kernel discards the barrier descriptor systemd-notify passes, which releases it.
 */
const RECEIVER = `
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print("listening", flush=True)
while True:
    data = s.recv(4096)
    for line in data.decode().split("\\n"):
        if line: print(line, flush=True)
`;
import { omniposArgs } from '../../helpers/omnipos-process.js';

const tempDir = useTempDirs();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

function lines(child: ChildProcess): {
  seen: string[];
  until(pred: (l: string) => boolean, ms: number): Promise<string>;
} {
  const seen: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    seen.push(...parts);
  });
  return {
    seen,
    async until(pred, ms) {
      const end = Date.now() + ms;
      for (;;) {
        const hit = seen.find(pred);
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`not seen in ${ms} ms; got ${JSON.stringify(seen)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

describe('the daemon under Type=notify', () => {
  it('says READY=1 with its status once started, feeds the watchdog at half WATCHDOG_USEC, says STOPPING=1 on SIGTERM and exits 0', async () => {
    const dir = tempDir('omnipos-notify-');
    const socketPath = path.join(dir, 'notify.sock');
    const receiver = spawn('python3', ['-c', RECEIVER, socketPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(receiver);
    const got = lines(receiver);
    await got.until((l) => l === 'listening', 10_000);
    const daemon = spawn(process.execPath, omniposArgs(['run']), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        OMNIPOS_STATE_DIR: path.join(dir, 'state'),
        OMNIPOS_API__PORT: '0',
        OMNIPOS_SANDBOX__PORT: '0',
        OMNIPOS_LOG__LEVEL: 'warn',
        NOTIFY_SOCKET: socketPath,
        WATCHDOG_USEC: '2000000',
      },
    });
    children.push(daemon);
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', (code) => resolve(code)));
    await got.until((l) => l === 'READY=1', 60_000);
    expect(got.seen).toContain('STATUS=omnipos sandbox');
    await got.until((l) => l === 'WATCHDOG=1', 5_000);
    const firstBeat = got.seen.indexOf('WATCHDOG=1');
    await new Promise((r) => setTimeout(r, 2500));
    // Half of 2 s: at least two more beats in 2.5 s.
    expect(got.seen.slice(firstBeat + 1).filter((l) => l === 'WATCHDOG=1').length).toBeGreaterThanOrEqual(2);
    daemon.kill('SIGTERM');
    await got.until((l) => l === 'STOPPING=1', 10_000);
    expect(await exited).toBe(0);
  }, 120_000);
});

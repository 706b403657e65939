import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** True when socat is installed (.ci/run installs it). */
export const HAS_SOCAT = spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0;

/** Waits until `paths` exist (socat made its pty links), or throws after `ms`. */
export async function waitForPaths(paths: readonly string[], ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!paths.every((p) => existsSync(p))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${paths.join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Two pseudo-terminals joined by socat, each at a stable link path. Kill it to "unplug" both ends. */
export async function ptyPair(a: string, b: string): Promise<ChildProcess> {
  const child = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  await waitForPaths([a, b]);
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

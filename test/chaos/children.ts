/**
 * The chaos run's child processes (daemons and virtual pinpads), so that none outlives the run: a
 * run stopped by SIGTERM or SIGINT (a test's time limit, Ctrl-C) or ending any other way kills
 * every child still running with SIGKILL. Before, a killed run left its daemons and pinpads behind.
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

/** Tracks `child` until it exits. */
export function track<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** SIGKILLs every tracked child still running; synchronous, so it also works in an `exit` handler. */
export function killChildren(): number {
  let n = 0;
  for (const c of running) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
      n++;
    }
  }
  running.clear();
  return n;
}

/**
 * Installs the handlers: on SIGTERM or SIGINT the children are killed and the run ends with
 * 128 + the signal's number; on `exit` whatever is left is killed.
 */
export function killChildrenOnStop(): void {
  process.once('exit', () => killChildren());
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    process.once(signal, () => {
      const n = killChildren();
      process.stderr.write(`chaos: ${signal}, killed ${n} child process${n === 1 ? '' : 'es'}\n`);
      process.exit(code);
    });
  }
}

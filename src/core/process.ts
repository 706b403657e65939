/**
 * Whether the process `pid` lives: a signal 0 reaches it, or it exists but is not ours to signal
 * (`EPERM`). A recorded pid is told from a stale one (the sandbox's address record, a test's folder).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

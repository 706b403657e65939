import { execFile } from 'node:child_process';

/**
 * systemd's notify protocol through the `systemd-notify` binary (Node has no datagram sockets;
 * the unit sets NotifyAccess=all). Does nothing when not started by systemd (no NOTIFY_SOCKET).
 */
export function sdNotify(env: Readonly<Record<string, string | undefined>>, ...assignments: string[]): Promise<void> {
  if (!env.NOTIFY_SOCKET) return Promise.resolve();
  return new Promise((resolve) => {
    execFile('systemd-notify', assignments, { timeout: 5000 }, () => resolve());
  });
}

/** The watchdog interval systemd asked for (half of WATCHDOG_USEC), in ms, or undefined. */
export function watchdogIntervalMs(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const usec = Number(env.WATCHDOG_USEC);
  return Number.isFinite(usec) && usec > 0 ? Math.max(1000, Math.floor(usec / 2000)) : undefined;
}

import { sdNotify, watchdogIntervalMs } from '../core/systemd.js';
import type { Db } from '../store/index.js';
import type { Held } from './held.js';

/**
 * systemd's side of a starting daemon: the watchdog fed while the event loop runs and the database
 * answers (when systemd asks for one), and STOPPING=1 at the stop of a daemon that was ready;
 * both registered in `held`.
 */
export function startWatchdog(
  held: Held,
  env: Readonly<Record<string, string | undefined>>,
  db: Db,
  ready: () => boolean,
): void {
  const interval = watchdogIntervalMs(env);
  const watchdog = interval
    ? setInterval(() => {
        // Fed only while the event loop runs this timer and the database answers.
        db.prepare('SELECT 1').get();
        void sdNotify(env, 'WATCHDOG=1');
      }, interval)
    : undefined;
  watchdog?.unref();
  if (watchdog) held.add('the systemd watchdog', () => clearInterval(watchdog));
  // STOPPING=1 as an assignment: systemd-notify has no --stopping before systemd 253 (Debian 12 ships 252).
  held.add('systemd', () => (ready() ? sdNotify(env, 'STOPPING=1') : undefined));
}

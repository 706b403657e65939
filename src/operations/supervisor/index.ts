import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../core/log/index.js';
import { hashSupervisorPassword, isSupervisorHash } from '../../engine/index.js';
import { ensureTokenFile } from '../../store/index.js';

/**
 * The supervisor's credentials in the state directory: the password's hash (`omnipos void
 * --set-password`, read by the daemon's supervisor gate at each check) and the API's supervisor
 * token. The gate itself is the engine's (SupervisorGate).
 */

/** Where the supervisor's password hash lives: `supervisor.passwordFile`, or the state directory. */
export function supervisorPasswordFile(config: Config): string {
  return config.values.supervisor.passwordFile ?? path.join(config.values.stateDir, 'supervisor-password');
}

/**
 * The API's supervisor token: `supervisor-token` in the state directory, created at first start
 * (32 random bytes, base64url, mode 0600) like the cash register's `api-token`, and never equal
 * to it. Hand it only to the supervisor's screen or device.
 */
export function ensureSupervisorToken(stateDir: string): { token: string; file: string } {
  return ensureTokenFile(stateDir, 'supervisor-token');
}

/**
 * The stored hash, read at each check (a password changed by `omnipos supervisor password` counts
 * at once). Undefined when none is set; a file that does not hold a scrypt hash (a password in
 * clear, say) is never used: it is reported and treated as no password.
 */
export function readSupervisorHash(file: string, log?: Logger): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (isSupervisorHash(text)) return text;
  log?.error(
    { file },
    'the supervisor password file does not hold a scrypt hash; it is ignored (set it with `omnipos supervisor password`)',
  );
  return undefined;
}

/** Writes the hash of `password` (mode 0600, replaced atomically). The password itself is never written. */
export function writeSupervisorPassword(file: string, password: string): void {
  const hash = hashSupervisorPassword(password);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${hash}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

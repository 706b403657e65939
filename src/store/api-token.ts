import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The local API's bearer token: `api-token` in the state directory, created at first start
 * (32 random bytes, base64url) with mode 0600, so only the service user and the cash register
 * it is handed to can use the API. Returns the token and its file.
 */
export function ensureApiToken(stateDir: string): { token: string; file: string } {
  return ensureTokenFile(stateDir, 'api-token');
}

/**
 * A bearer token in file `name` of the state directory, created when missing or too short (32
 * random bytes, base64url, mode 0600): the API's and the supervisor's are two such files. An
 * existing one is set back to mode 0600 each time.
 */
export function ensureTokenFile(stateDir: string, name: string): { token: string; file: string } {
  const file = path.join(stateDir, name);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 32) {
      // Tightened on every start: a token file someone loosened (a copy, a restore) is the service user's again.
      chmodSync(file, 0o600);
      return { token, file };
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file };
}

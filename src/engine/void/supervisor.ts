import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { OmniposError } from '../../core/index.js';
import { Lockouts, type Lockout } from './lockout.js';
import type { SupervisorProof } from './types.js';

/**
 * The supervisor's authorization of a void: a password (or PIN) per terminal, kept only as a
 * salted scrypt hash, and on the API a supervisor token distinct from the cash register's.
 * Nothing here reads files: the composition root hands in the stored hash and token.
 */

/** scrypt cost: N = 2^14, r = 8, p = 1 (16 MiB, tens of ms per check). */
const N = 16_384;
const R = 8;
const P = 1;
const KEY_LEN = 32;
/** The stored form: `scrypt$N$r$p$<salt, base64>$<hash, base64>`. */
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** The shortest password a supervisor may set (PCI DSS v4.0 8.3.6: at least 8 characters, letters and digits). */
export const SUPERVISOR_PASSWORD_MIN = 8;

/**
 * A password a supervisor may set: 8 to 128 characters, with a letter and a digit (PCI DSS 8.3.6).
 * A 4-digit PIN falls to 10,000 guesses; this one does not.
 */
export function assertSupervisorPassword(password: string): void {
  if (password.length < SUPERVISOR_PASSWORD_MIN || password.length > 128) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `supervisor password: ${SUPERVISOR_PASSWORD_MIN} to 128 characters, got ${password.length}`,
    );
  }
  if (!/\p{L}/u.test(password) || !/\p{N}/u.test(password))
    throw new OmniposError('INVALID_ARGUMENT', 'supervisor password: at least one letter and one digit');
}

/**
 * The salted scrypt hash of `password`, in the stored form. `cost` (N, a power of two) is for
 * tests that hash thousands of times; the default is the one to store.
 */
export function hashSupervisorPassword(password: string, salt: Buffer = randomBytes(16), cost: number = N): string {
  assertSupervisorPassword(password);
  const hash = scryptSync(password, salt, KEY_LEN, { N: cost, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${cost}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether `stored` is a hash this module wrote. */
export function isSupervisorHash(stored: string): boolean {
  return FORMAT.test(stored.trim());
}

/** Checks `password` against the stored hash in constant time. A malformed hash never matches. */
export function verifySupervisorPassword(password: string, stored: string): boolean {
  const m = FORMAT.exec(stored.trim());
  if (!m) return false;
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (n > 1 << 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(m[4] as string, 'base64');
  const want = Buffer.from(m[5] as string, 'base64');
  if (want.length === 0 || password.length > 1024) return false;
  const got = scryptSync(password, salt, want.length, { N: n, r, p, maxmem: 256 * 1024 * 1024 });
  return timingSafeEqual(got, want);
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** What a request or a command presents for a supervisor. */
export interface SupervisorCredential {
  token?: string | undefined;
  password?: string | undefined;
  /**
   * Who offers it, what lockouts are counted by: the API gives `<bearer scope>@<address>`, a
   * command on the terminal `local`. Default `local`.
   */
  client?: string | undefined;
}

export interface SupervisorSources {
  /** The API's supervisor token (never the cash register's). */
  token: string;
  /** The stored password hash, read when asked (undefined: none set). */
  passwordHash(): string | undefined;
  /** Wrong credentials in a row from one client before it is locked out (default 5). */
  maxFailures?: number;
  /** The first lockout of a client, ms (default 60 s); it doubles with each lockout in a row, up to `maxLockMs`. */
  lockMs?: number;
  /** The longest lockout, ms (default 1 h). */
  maxLockMs?: number;
  /** Milliseconds now (default Date.now). */
  now?: () => number;
  /** Told of each lockout (the daemon raises an alarm); never given the credential offered. */
  onLockout?: (lockout: Lockout) => void;
}

/**
 * Decides whether a credential is a supervisor's: the supervisor token, or the password
 * checked against its hash. Throws SUPERVISOR_REQUIRED (or SUPERVISOR_NOT_CONFIGURED when a
 * password is offered and none is set); returns how the supervisor proved it.
 */
export class SupervisorGate {
  readonly #s: SupervisorSources;
  readonly #lockouts: Lockouts;

  constructor(sources: SupervisorSources) {
    if (sources.token.length < 32)
      throw new OmniposError('INVALID_ARGUMENT', 'supervisor token: at least 32 characters');
    this.#s = sources;
    this.#lockouts = new Lockouts(sources);
  }

  /**
   * Wrong credentials lock out the client that sent them (`c.client`) for that kind of
   * credential, never another client: after `maxFailures` in a row that client's passwords are
   * refused, right or wrong, for `lockMs`, doubling with each lockout in a row. The supervisor token is 32 random bytes, which no one
   * guesses: the right one is always accepted, so guessing cannot deny the supervisor.
   */
  authorize(c: SupervisorCredential, what = 'a void'): SupervisorProof {
    const now = (this.#s.now ?? Date.now)();
    // Counted per credential and per client: wrong tokens never lock out a password, nor one client another.
    const kind = c.token !== undefined && c.token !== '' ? 'token' : 'password';
    const client = `${kind}:${c.client ?? 'local'}`;
    const offered = kind === 'token' || (c.password !== undefined && c.password !== '');
    const lockedUntil = this.#lockouts.lockedUntil(client, now);
    if (offered && lockedUntil !== undefined && !this.#isToken(c.token)) {
      throw new OmniposError(
        'SUPERVISOR_REQUIRED',
        `too many wrong supervisor credentials from this client: try again in ${Math.ceil((lockedUntil - now) / 1000)} s`,
        { lockedUntil: new Date(lockedUntil).toISOString() },
      );
    }
    try {
      const proof = this.#check(c, what);
      this.#lockouts.succeed(client);
      return proof;
    } catch (e) {
      if (offered && e instanceof OmniposError && e.code === 'SUPERVISOR_REQUIRED') {
        const lockout = this.#lockouts.fail(client, now);
        if (lockout) this.#s.onLockout?.(lockout);
      }
      throw e;
    }
  }

  #isToken(token: string | undefined): boolean {
    return token !== undefined && token !== '' && timingSafeEqual(digest(token), digest(this.#s.token));
  }

  #check(c: SupervisorCredential, what: string): SupervisorProof {
    if (c.token !== undefined && c.token !== '') {
      if (this.#isToken(c.token)) return 'supervisor-token';
      throw new OmniposError('SUPERVISOR_REQUIRED', 'the supervisor token is not valid');
    }
    if (c.password !== undefined && c.password !== '') {
      const hash = this.#s.passwordHash();
      if (!hash)
        throw new OmniposError(
          'SUPERVISOR_NOT_CONFIGURED',
          'no supervisor password is set for this terminal (omnipos supervisor password)',
        );
      if (verifySupervisorPassword(c.password, hash)) return 'supervisor-password';
      throw new OmniposError('SUPERVISOR_REQUIRED', 'the supervisor password is not valid');
    }
    throw new OmniposError('SUPERVISOR_REQUIRED', `${what} needs a supervisor: send the supervisor token or password`);
  }
}

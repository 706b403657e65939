import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './http-kit.js';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Which bearer credential a request was let in with (`register` for the cash register's token). */
const scopes = new WeakMap<IncomingMessage, string>();

/** The bearer token of `req`, or undefined when the header is absent or malformed. */
export function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m ? m[1] : undefined;
}

/** Whether `given` is `want`, in constant time (both hashed first, so their lengths do not show). */
export function sameSecret(given: string, want: string): boolean {
  return timingSafeEqual(digest(given), digest(want));
}

/** Checks `Authorization: Bearer <token>` in constant time; 401 otherwise. */
export function requireToken(req: IncomingMessage, token: string): void {
  const given = bearerOf(req);
  if (given === undefined || !sameSecret(given, token)) {
    throw new ApiError(401, 'UNAUTHORIZED', 'a valid bearer token is required (see `omnipos api token`)');
  }
  scopes.set(req, 'register');
}

/** Records the scope a request was let in with (a ticket, a screen's token). */
export function admit(req: IncomingMessage, scope: string): void {
  scopes.set(req, scope);
}

/**
 * Who sent `req`, as lockouts and refusal logs count it: the credential it was let in with and
 * its address (`register@127.0.0.1`); never the token itself.
 */
export function clientOf(req: IncomingMessage): string {
  return `${scopes.get(req) ?? 'anonymous'}@${req.socket.remoteAddress ?? 'unknown'}`;
}

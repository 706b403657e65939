import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './http-kit.js';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Checks `Authorization: Bearer <token>` in constant time; 401 otherwise. */
export function requireToken(req: IncomingMessage, token: string): void {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m || !timingSafeEqual(digest(m[1] as string), digest(token))) {
    throw new ApiError(401, 'UNAUTHORIZED', 'a valid bearer token is required (see `omnipos api token`)');
  }
}

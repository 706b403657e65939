import type { IncomingMessage } from 'node:http';
import type { SupervisorCredential } from '../engine/index.js';
import { clientOf } from './auth.js';

/** The supervisor's credential headers (never the cash register's bearer token). */
export const SUPERVISOR_TOKEN_HEADER = 'x-supervisor-token';
export const SUPERVISOR_PASSWORD_HEADER = 'x-supervisor-password';

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * What a request offers for a supervisor, and who offers it (the bearer credential and the
 * address it came from): the gate locks out that client alone after wrong guesses.
 */
export function supervisorCredential(req: IncomingMessage): SupervisorCredential {
  return {
    token: header(req, SUPERVISOR_TOKEN_HEADER),
    password: header(req, SUPERVISOR_PASSWORD_HEADER),
    client: clientOf(req),
  };
}

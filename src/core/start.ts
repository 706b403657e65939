import { isOmniposError, OmniposError } from './errors/index.js';

/**
 * How a start-up ends short (the daemon's, src/main/held.ts; the commands that start parts of it:
 * `omnipos sandbox`): cut by a stop request, or failed at a named step.
 */

/** Thrown inside a start-up that a stop request (SIGTERM) cut short; nothing is left open. */
export class StartAborted extends Error {
  constructor() {
    super('start-up cancelled by a stop request');
    this.name = 'StartAborted';
  }
}

export function isStartAborted(e: unknown): e is StartAborted {
  return e instanceof StartAborted;
}

const LISTEN_CODES: Record<string, string> = {
  EADDRINUSE: 'the address is in use by another process',
  EACCES: 'this user may not listen there',
  EADDRNOTAVAIL: 'no interface of this machine has that address',
};

/** One clear error for a failed start-up step: ours pass through, a refused listen says where, the rest name the step. */
export function startError(what: string, e: unknown): unknown {
  if (isOmniposError(e) || isStartAborted(e)) return e;
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  const why = err.code ? LISTEN_CODES[err.code] : undefined;
  if (why && err.syscall === 'listen') {
    const where = err.port !== undefined ? `${err.address ?? ''}:${err.port}` : (err.address ?? '?');
    return new OmniposError(
      'START_LISTEN_FAILED',
      `${what} cannot listen on ${where}: ${why}`,
      { part: what, address: err.address, port: err.port, errno: err.code },
      { cause: e },
    );
  }
  return new OmniposError(
    'START_FAILED',
    `${what}: ${err.message ?? String(e)}`,
    { part: what, ...(err.code ? { errno: err.code } : {}) },
    { cause: e },
  );
}

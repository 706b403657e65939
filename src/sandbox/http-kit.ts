import type { IncomingHttpHeaders } from 'node:http';
import { apiError, apiErrors, CODE, fieldCode } from './errors.js';
import { Refusal } from './refusal.js';
import type { RouteMatch } from './routes.js';

export { Refusal };

/** One request as the sandbox's handlers see it. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  route: RouteMatch;
}

/** What a handler answers: a status and JSON body, or "withhold the answer" (the timeout outcome). */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | { withhold: true };

/** A 400 with one published error per field that is missing or wrong (tables/sandbox/published-errors.json). */
export function invalidFields(problems: string[]): Refusal {
  return apiErrors(
    400,
    problems.map((p) => ({ code: fieldCode(p), detail: p })),
  );
}

function mediaType(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The JSON body of a request. An empty body gives `undefined` (operations whose body is
 * optional accept that); a body that is not `application/json` gets 415; bad JSON gets 400.
 */
export function jsonBody(req: SandboxRequest): unknown {
  if (req.rawBody.length === 0) return undefined;
  const type = mediaType(req.headers);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw apiError(415, CODE.internal, `Content-Type must be application/json, got ${type || 'none'}`);
  }
  try {
    return JSON.parse(req.rawBody.toString('utf8')) as unknown;
  } catch (e) {
    throw apiError(400, CODE.emptyRequest, `body is not valid JSON (${(e as Error).message})`);
  }
}

/** A JSON object body, required. */
export function objectBody(req: SandboxRequest): Record<string, unknown> {
  const body = jsonBody(req);
  if (body === undefined) throw invalidFields(['body: is required']);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidFields(['body: must be a JSON object']);
  return body as Record<string, unknown>;
}

/** The form body of a token request (url-encoded; the manual sends it as text/plain). */
export function formBody(req: SandboxRequest): URLSearchParams {
  const type = mediaType(req.headers);
  if (req.rawBody.length > 0 && type !== 'application/x-www-form-urlencoded' && type !== 'text/plain') {
    throw new Refusal(415, {
      error: 'invalid_request',
      error_description: `Content-Type must be application/x-www-form-urlencoded, got ${type || 'none'}`,
    });
  }
  return new URLSearchParams(req.rawBody.toString('utf8'));
}

/* Small field readers for validation: each returns the value or pushes a problem naming the path. */

export function get(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

export class Fields {
  readonly problems: string[] = [];

  constructor(readonly obj: unknown) {}

  string(
    path: string,
    opts: { re?: RegExp; hint?: string; optional?: boolean; oneOf?: readonly string[] } = {},
  ): string | undefined {
    const v = get(this.obj, path);
    if (v === undefined || v === null || v === '') {
      if (!opts.optional) this.problems.push(`${path}: is required`);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.problems.push(`${path}: must be a string`);
      return undefined;
    }
    if (opts.oneOf && !opts.oneOf.includes(v)) {
      this.problems.push(`${path}: must be one of ${opts.oneOf.join(', ')}`);
      return undefined;
    }
    if (opts.re && !opts.re.test(v)) {
      this.problems.push(`${path}: ${opts.hint ?? `must match ${String(opts.re)}`}`);
      return undefined;
    }
    return v;
  }

  int(path: string, opts: { min?: number; max?: number; optional?: boolean } = {}): number | undefined {
    const v = get(this.obj, path);
    if (v === undefined || v === null) {
      if (!opts.optional) this.problems.push(`${path}: is required`);
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      this.problems.push(`${path}: must be a whole number`);
      return undefined;
    }
    if ((opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max)) {
      this.problems.push(`${path}: must be from ${opts.min ?? '-'} to ${opts.max ?? '-'}`);
      return undefined;
    }
    return v;
  }

  bool(path: string, opts: { optional?: boolean } = {}): boolean | undefined {
    const v = get(this.obj, path);
    if (v === undefined || v === null) {
      if (!opts.optional) this.problems.push(`${path}: is required`);
      return undefined;
    }
    if (typeof v !== 'boolean') {
      this.problems.push(`${path}: must be true or false`);
      return undefined;
    }
    return v;
  }

  object(path: string, opts: { optional?: boolean } = {}): Record<string, unknown> | undefined {
    const v = get(this.obj, path);
    if (v === undefined || v === null) {
      if (!opts.optional) this.problems.push(`${path}: is required`);
      return undefined;
    }
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.problems.push(`${path}: must be an object`);
      return undefined;
    }
    return v as Record<string, unknown>;
  }

  /** Refuses with every problem named, if any. */
  check(): void {
    if (this.problems.length > 0) throw invalidFields(this.problems);
  }
}

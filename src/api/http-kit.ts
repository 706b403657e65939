import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { apiCodeOf, httpStatusOf, isOmniposError, type ErrorCode } from '../core/index.js';
import { storeWriteFailure } from '../store/index.js';
import { duplicateKey } from './json-keys.js';

/** An API refusal: HTTP status, a stable code from the one catalogue (src/core/errors) and, for bad input, the path of the field at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Headers the answer carries besides the JSON's (a refusal's `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** Maps anything thrown by a handler to a JSON error; never leaks a stack. */
export function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof ApiError) {
    sendJson(
      res,
      e.status,
      { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } },
      e.headers,
    );
    return;
  }
  // A write that failed for want of space or an I/O error under the request (the order ids', the
  // outbox's…: not only the journal's, which says so itself) is STORE_WRITE_FAILED, never a 500.
  const err = isOmniposError(e) ? e : storeWriteFailure(e);
  if (err) {
    // An engine's code goes out by its API name (ENGINE_NOT_FOUND is NOT_FOUND): the document lists only those.
    sendJson(res, httpStatusOf(err), { error: { code: apiCodeOf(err.code), message: err.message } });
    return;
  }
  sendJson(res, 500, { error: { code: 'INTERNAL', message: 'unexpected error' } });
}

/** An operation that takes no body refuses one (400 INVALID_BODY) rather than ignore what the client meant. */
export function refuseBody(req: IncomingMessage): void {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > 0 || req.headers['transfer-encoding'] !== undefined)
    throw new ApiError(400, 'INVALID_BODY', 'this operation takes no body');
}

/** Reads a JSON object body: 415 for another type, 413 past `limit` bytes, 400 for bad JSON or a key given twice. */
export async function readJson(req: IncomingMessage, limit = 64 * 1024): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `the body is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, 'INVALID_JSON', `the body is not JSON: ${(e as Error).message}`);
  }
  const repeated = duplicateKey(text);
  if (repeated !== undefined)
    throw new ApiError(400, 'INVALID_JSON', `the body names "${repeated.slice(0, 64)}" twice`, repeated.slice(0, 64));
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, 'INVALID_BODY', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * A request schema's messages in the house style (`amount: must be at most 99999999`, `method: one of
 * credit, debit, …`), where the schema gives none of its own: pass as `safeParse(body, { error: houseMessage })`.
 */
export function houseMessage(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.input === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value')) return 'is required';
  switch (iss.code) {
    case 'too_big':
      return `must be at most ${String(iss.maximum)}`;
    case 'too_small':
      return `must be at least ${String(iss.minimum)}`;
    case 'invalid_value':
      return `one of ${iss.values.map(String).join(', ')}`;
    case 'invalid_type':
      return `must be ${iss.expected === 'object' ? 'an object' : `a ${iss.expected}`}`;
    default:
      return undefined;
  }
}

/** The first problem of a request body as 400 INVALID_FIELD, `field` the path of the field at fault (`payer.email`). */
export function invalidField(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const path = issue ? [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])] : [];
  const field = path.map(String).join('.');
  const why = issue?.code === 'unrecognized_keys' ? 'unknown field' : (issue?.message ?? 'invalid');
  return new ApiError(400, 'INVALID_FIELD', `${field || 'body'}: ${why}`, field || undefined);
}

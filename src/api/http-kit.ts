import type { IncomingMessage, ServerResponse } from 'node:http';
import { OmniposError, httpStatusOf, isOmniposError } from '../core/index.js';
import { duplicateKey } from './json-keys.js';

/** An API refusal: HTTP status, a stable code and, for bad input, the field at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
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
    sendJson(res, e.status, { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } });
    return;
  }
  if (isOmniposError(e)) {
    sendJson(res, httpStatusOf(e), { error: { code: e.code, message: e.message } });
    return;
  }
  sendJson(res, 500, { error: { code: 'INTERNAL', message: 'unexpected error' } });
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

export { OmniposError };

/* How the wallet API (src/sandbox/wallet.ts) reads a request and refuses it. */
import { walletError } from './errors.js';
import { Refusal, type SandboxRequest } from './http-kit.js';

/** A refusal with a `description` (and `problems` for bad fields), as the wallet API answers. */
export const err = (status: number, description: string, extra: Record<string, unknown> = {}): Refusal =>
  new Refusal(status, { description, ...extra });
/** A published wallet error (tables/sandbox/published-errors.json, QR_V4 315ff); the detail goes in parentheses. */
export const business = (status: 400 | 412 | 422, code: string, detail?: string): Refusal =>
  walletError(code, detail, status);

/** The request's media type, lower case, without parameters. */
export function mediaType(req: SandboxRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The request's JSON object body: 415 for another media type, 400 for bad JSON or not an object. */
export function jsonObject(req: SandboxRequest): Record<string, unknown> {
  if (mediaType(req) !== 'application/json')
    throw err(415, `Content-Type must be application/json, got ${mediaType(req) || 'none'}`);
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw err(400, 'body is not valid JSON', { problems: ['body: is not valid JSON'] });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw err(400, 'body must be a JSON object', { problems: ['body: must be a JSON object'] });
  return body as Record<string, unknown>;
}

import { timingSafeEqual } from 'node:crypto';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import { apiError, CODE } from './errors.js';
import type { SandboxRequest } from './http-kit.js';

function same(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `MerchantId` and `MerchantKey` headers on every e-commerce request. */
export function requireMerchant(req: SandboxRequest): void {
  const id = req.headers.merchantid;
  const key = req.headers.merchantkey;
  if (typeof id !== 'string' || id === '') throw apiError(401, CODE.merchantIdRequired);
  if (typeof key !== 'string' || key === '') throw apiError(401, CODE.merchantKeyRequired);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
    throw apiError(401, CODE.merchantIdFormat);
  if (!same(id, SANDBOX_CREDENTIALS.merchantId)) throw apiError(401, CODE.merchantIdNotFound);
  if (!same(key, SANDBOX_CREDENTIALS.merchantKey)) throw apiError(401, CODE.merchantKeyInvalid);
}

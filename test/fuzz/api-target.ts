import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { requireToken } from '../../src/api/auth.js';
import { ApiError, readJson } from '../../src/api/http-kit.js';
import { PaymentRequest } from '../../src/api/payments.js';
import { jsonBodies, type AsyncTarget } from './http-inputs.js';

/**
 * The local API's `POST /v1/payments` reading: the Authorization and Idempotency-Key headers, the
 * media type, the body (split in chunks, as a socket delivers it) and its validation. A refusal
 * is an ApiError (4xx); anything else thrown is a crash.
 */
export function apiTarget(): AsyncTarget<unknown> {
  const token = 'fuzz-token-0123456789';
  const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,64}$/;
  const keys = [
    'amount',
    'method',
    'payer',
    'name',
    'document',
    'qrModality',
    'installments',
    'interest',
    'confirmation',
    'receipt',
    'entry',
  ];
  return {
    name: 'api-payment-request (body and headers)',
    input: fc.record({
      authorization: fc.oneof(
        fc.constant(`Bearer ${token}`),
        fc.string({ maxLength: 60 }),
        fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
      ),
      key: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/), fc.string({ maxLength: 80 }))),
      type: fc.oneof(
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
        fc.string({ maxLength: 30 }),
      ),
      body: fc.oneof(
        jsonBodies(keys),
        fc
          .record(
            {
              amount: fc.oneof(fc.integer(), fc.double(), fc.string()),
              method: fc.constantFrom('credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'x'),
              payer: fc.option(fc.record({ name: fc.string(), document: fc.stringMatching(/^[\d.\-/ ]{0,20}$/) })),
            },
            { requiredKeys: [] },
          )
          .map((o) => Buffer.from(JSON.stringify(o))),
      ),
      cut: fc.nat(),
    }),
    run: async (x: unknown) => {
      const r = x as { authorization: string; key: string | null; type: string; body: Buffer; cut: number };
      const at = r.cut % (r.body.length + 1);
      const req = Object.assign(
        Readable.from([r.body.subarray(0, at), r.body.subarray(at)].filter((c) => c.length > 0)),
        {
          headers: {
            authorization: r.authorization,
            'content-type': r.type,
            ...(r.key !== null ? { 'idempotency-key': r.key } : {}),
          },
        },
      ) as unknown as IncomingMessage;
      // Each step is tried whatever the one before said, so a bad token does not hide the body.
      let refused: ApiError | undefined;
      try {
        requireToken(req, token);
      } catch (e) {
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        refused = e;
      }
      if (r.key !== null && !IDEMPOTENCY_KEY.test(r.key))
        refused ??= new ApiError(400, 'INVALID_FIELD', 'Idempotency-Key');
      try {
        if (!PaymentRequest.safeParse(await readJson(req)).success)
          refused ??= new ApiError(400, 'INVALID_FIELD', 'body');
      } catch (e) {
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        refused ??= e;
      }
      if (refused) throw refused;
    },
  };
}

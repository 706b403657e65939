import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardProductOf } from '../../../src/acquirer/ecommerce/backend.js';
import {
  cardQueryOutcome,
  cardSaleOutcome,
  changeOutcome,
  orderIdsOutcome,
} from '../../../src/acquirer/ecommerce/outcomes.js';
import { recurrenceOutcome, savedCardOutcome } from '../../../src/acquirer/ecommerce/saved-cards.js';
import type { CardBinAnswer } from '../../../src/acquirer/index.js';
import type { Exchange } from '../../../src/acquirer/omni/outcomes.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import data from './ecommerce-card-examples.json' with { type: 'json' };

/**
 * The conformance corpus of the e-commerce card API: the e-commerce page's literal examples of
 * credit card sales, their capture, void, queries and the BIN lookup (ecommerce-card-examples.json:
 * page, line of the block's fence, section, method, path, body as printed), replayed two ways.
 *
 * 1. Every example request is sent, as printed, to the sandbox's e-commerce host, which answers it
 *    as the page says (or refuses it for a reason written here beside its line).
 * 2. Every example answer is read by our client's outcome functions into what the page's text says
 *    it means. Blocks that are not JSON as printed are counted and named, never silently dropped.
 */

interface Example {
  line: number;
  section: string;
  kind: 'request' | 'answer';
  method: string;
  path: string;
  body?: unknown;
  unparsed?: boolean;
  note?: string;
  alt?: { line: number; body: unknown };
}

const EXAMPLES = data.examples as Example[];
const byLine = (line: number): Example => {
  const e = EXAMPLES.find((x) => x.line === line);
  if (!e) throw new Error(`no example at ${line}`);
  return e;
};
const answer = (body: unknown, status = 200): Exchange => ({ kind: 'answer', status, body });

/** What each example request gets from the host, by line: the status and, for a sale, `Payment.Status`. */
const REQUESTS: Record<number, { status: number; saleStatus?: number; why: string }> = {
  563: { status: 201, saleStatus: 2, why: 'Capture true, a card ending in 1 (ECOMMERCE:401): authorized and captured' },
  2689: {
    status: 201,
    saleStatus: 1,
    why: 'Capture false, a card ending in 1: a pre-authorization (its answer, 2776, shows Status 1); the expiry 12/2021 is only checked for format (ECOMMERCE:392, 412)',
  },
  3083: {
    status: 201,
    why: 'POST /1/card as printed: the buyer as CustomerName (the table says Name, 3113: either is taken), a 16-digit number; the answer is a CardToken',
  },
  3479: {
    status: 201,
    saleStatus: 1,
    why: 'a sale by CardToken, Capture false: the test plants the token the example names (a saved card ending in 1), so a pre-authorization as its answer (3537) shows',
  },
  4266: {
    status: 201,
    saleStatus: 1,
    why: 'a scheduled recurrence, AuthorizeNow "true", no Capture, a card ending in 1: authorized now (its answer, 4352, shows Status 1); the page\'s EndDate 2019-12-01 is past, which the page names no error for',
  },
  4508: {
    status: 201,
    saleStatus: 20,
    why: 'AuthorizeNow "false" with StartDate: scheduled, Status 20 (its answer, 4604, shows 20)',
  },
};

/** The saved card the page's token sale (3479) names: planted in the host before it is sent. */
const PLANTED_TOKEN = '6e1bf77a-b28b-4660-b14f-455e2a1c95e9';

/** What each example answer means, read by our outcome functions, by line. */
const ANSWERS: Record<number, (body: unknown) => void> = {
  502: (b) =>
    expect(cardProductOf(b as CardBinAnswer)).toMatchObject({ brand: 'Visa', type: 'multiple', supported: true }),
  772: (b) =>
    expect(cardSaleOutcome(answer(b, 201), true)).toMatchObject({
      answer: 'approved',
      state: 'approved',
      paymentId: '24bc8366-fc31-4d6c-8555-17049a836a07',
      maskedNumber: '455187******0183',
    }),
  2776: (b) => expect(cardSaleOutcome(answer(b, 201), false)).toMatchObject({ answer: 'approved', state: 'pending' }),
  3537: (b) => expect(cardSaleOutcome(answer(b, 201), false)).toMatchObject({ answer: 'approved', state: 'pending' }),
  3121: (b) =>
    expect(savedCardOutcome(answer(b, 201), { maskedNumber: '453211******3700', brand: 'Visa' })).toMatchObject({
      kind: 'saved',
      token: 'db62dc71-d07b-4745-9969-42697b988ccb',
    }),
  4352: (b) =>
    expect(cardSaleOutcome(answer(b, 201), false)).toMatchObject({
      answer: 'approved',
      state: 'pending',
      recurrenceId: '61e5bd30-ec11-44b3-ba0a-56fbbc8274c5',
    }),
  5891: (b) => expect(orderIdsOutcome(answer(b))).toMatchObject({ kind: 'ids' }),
  5958: (b) =>
    expect(recurrenceOutcome(answer(b))).toMatchObject({
      kind: 'found',
      status: 'active',
      amountCents: 15000,
      paymentIds: ['f70948a8-f1dd-4b93-a4ad-90428bcbdb84'],
    }),
  6118: (b) => expect(changeOutcome(answer(b), ['approved'])).toMatchObject({ kind: 'done', state: 'approved' }),
  6233: (b) =>
    expect(changeOutcome(answer(b), ['undone', 'cancelled'])).toMatchObject({ kind: 'done', state: 'undone' }),
  // A partial void leaves the captured sale at 2 (ECOMMERCE:6313-6330).
  6313: (b) =>
    expect(changeOutcome(answer(b), ['undone', 'cancelled', 'approved'])).toMatchObject({
      kind: 'done',
      state: 'approved',
    }),
};

/** Answers as printed only in a shell block: 5506's JSON block opens with '}'. */
const ALT_ANSWERS: Record<number, (body: unknown) => void> = {
  5584: (b) => expect(cardQueryOutcome(answer(b))).toMatchObject({ kind: 'found', state: 'pending', captured: false }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.running.sandbox.ctx.db
    .prepare(
      `INSERT INTO card_tokens (card_token, masked, holder, expiry, brand, created_at) VALUES (?, ?, ?, ?, ?, 0)`,
    )
    .run(PLANTED_TOKEN, '455187******0181', 'Comprador Teste', '12/2030', 'Visa');
});
afterAll(async () => {
  await h.close();
});

describe('the corpus', () => {
  it('holds every example once: 6 requests, 14 answers (3 not JSON as printed; 5506 read from its shell twin at 5584)', () => {
    expect(EXAMPLES.filter((e) => e.kind === 'request').map((e) => e.line)).toEqual([
      563, 2689, 3083, 3479, 4266, 4508,
    ]);
    expect(EXAMPLES.filter((e) => e.kind === 'answer')).toHaveLength(14);
    expect(EXAMPLES.filter((e) => e.unparsed).map((e) => e.line)).toEqual([5506, 5699, 6615]);
    for (const e of EXAMPLES) {
      if (e.kind === 'request') expect(REQUESTS[e.line], `request ${e.line}`).toBeDefined();
      else if (!e.unparsed) expect(ANSWERS[e.line], `answer ${e.line}`).toBeDefined();
      else expect(e.note, `why ${e.line} is not read`).toBeTruthy();
    }
  });
});

describe("1. the page's requests, sent as printed to the sandbox host", () => {
  it.each(Object.entries(REQUESTS))('ecom:%s', async (line, expected) => {
    const e = byLine(Number(line));
    const u = new URL(h.running.urls.ecommerceRequests);
    const res = await request(`${u.origin}${e.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        MerchantId: SANDBOX_CREDENTIALS.merchantId,
        MerchantKey: SANDBOX_CREDENTIALS.merchantKey,
      },
      body: JSON.stringify(e.body),
    });
    const body = (await res.body.json()) as { Payment?: { Status?: number } } & { Code?: number }[];
    expect(res.statusCode, expected.why).toBe(expected.status);
    if (expected.saleStatus !== undefined) expect(body.Payment?.Status).toBe(expected.saleStatus);
  });

  it("the host's answer to the page's sale carries every Payment field of the page's answer (772) that the sale made", async () => {
    const u = new URL(h.running.urls.ecommerceRequests);
    const res = await request(`${u.origin}/1/sales`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        MerchantId: SANDBOX_CREDENTIALS.merchantId,
        MerchantKey: SANDBOX_CREDENTIALS.merchantKey,
      },
      body: JSON.stringify(byLine(563).body),
    });
    const ours = ((await res.body.json()) as { Payment: Record<string, unknown> }).Payment;
    const page = (byLine(772).body as { Payment: Record<string, unknown> }).Payment;
    // Fields the page's answer has that this sale could not: airline, crypto, advice and PAR (the scheme's, 143).
    const notOurs = new Set([
      'MerchantAdviceCode',
      'PaymentAccountReference',
      'ExtraDataCollection',
      'TryAutomaticCancellation',
    ]);
    const missing = Object.keys(page).filter((k) => !(k in ours) && !notOurs.has(k));
    expect(missing).toEqual([]);
    expect(
      Object.keys(page.CreditCard as object).filter((k) => !(k in (ours.CreditCard as object)) && !notOurs.has(k)),
    ).toEqual(['CardOnFile']);
    expect(ours.CreditCard).not.toHaveProperty('SecurityCode');
  });
});

describe("2. the page's answers, read by our outcome functions", () => {
  it.each(Object.entries(ANSWERS))('ecom:%s', (line, check) => {
    check(byLine(Number(line)).body);
  });

  it.each(Object.entries(ALT_ANSWERS))('ecom:%s (shell block)', (line, check) => {
    const e = EXAMPLES.find((x) => x.alt?.line === Number(line));
    check(e?.alt?.body);
  });
});

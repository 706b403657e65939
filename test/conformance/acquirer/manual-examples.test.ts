import { describe, expect, it } from 'vitest';
import {
  operationOutcome,
  queryOutcome,
  saleOutcome,
  voidOutcome,
  voidQueryOutcome,
  type Exchange,
} from '../../../src/acquirer/omni/outcomes.js';
import { Refusal } from '../../../src/sandbox/refusal.js';
import { validateSale } from '../../../src/sandbox/sale-validate.js';
import data from './conecta-examples.json' with { type: 'json' };

/**
 * The conformance corpus: the acquirer manual's literal examples of the terminal API
 * (conecta-examples.json: page, line, section, method, path, body as printed), replayed two ways.
 *
 * 1. Every example sale request meets the sandbox host's request rules, or is refused for a reason
 *    written here beside its page and line (where the example and the page's own table disagree,
 *    the table wins: the strict reading is the sandbox's default, the example's a scenario).
 * 2. Every example answer is read by our client's outcome tables into what the manual's text says
 *    it means — and where the page prints an answer that does not say it (the void confirmation
 *    with CancellationStatus 4 and `ConfirmatinoStatus`), into "ask the host" (query), never a decision.
 */

interface Example {
  page: string;
  line: number;
  section: string;
  kind: 'request' | 'answer';
  method: string;
  path: string;
  body?: unknown;
  unparsed?: boolean;
}

const EXAMPLES = data.examples as Example[];
const at = (e: Example): string => `${e.page.includes('/en/') ? 'en' : 'pt'}:${e.line} ${e.section}`;
const answer = (e: Example, status = 200): Exchange => ({ kind: 'answer', status, body: e.body });

/** Example requests the strict host refuses, and why (page:line → the refusal expected, and the reason). */
const REFUSED: Record<string, { problem: RegExp; why: string }> = {
  'pt:1777': {
    problem: /SoftDescriptor: at most 13 letters/,
    why: '"Transação API" carries accents; the e-commerce page: "Evite utilizar acentos pois eles são considerados como dois caracteres"',
  },
  'pt:2160': {
    problem: /BrandId: must be a whole number/,
    why: 'the example sends BrandId "2" (a string); the table (1429) types it Integer',
  },
  'pt:2588': {
    problem: /MerchantOrderId: must be 1 to 15 digits/,
    why: 'the example keeps a template placeholder, {{MerchantOrderId}}',
  },
  'pt:4220': {
    problem: /EncryptedCardData: is required/,
    why: 'the example sends the card in clear; the sandbox models the terminal that always encrypts (DUKPT), and refuses clear card data',
  },
  'pt:5017': {
    problem: /BrandId: must be a whole number/,
    why: 'BrandId "4" as a string (Integer in the table); the card in clear too',
  },
  'pt:5408': { problem: /EncryptedCardData: is required/, why: 'MassTransit with the card in clear (see pt:4220)' },
  'pt:5794': { problem: /EncryptedCardData: is required/, why: 'MassTransit with the card in clear (see pt:4220)' },
  'pt:6180': {
    problem: /Amount: must be from 1/,
    why: 'an AVR (account verification) of Amount 0: the sandbox models sales only (homologation question); the card in clear too',
  },
  'pt:6564': {
    problem: /SoftDescriptor: at most 13 letters/,
    why: '"Transação API" carries accents (see pt:1777); the card in clear too',
  },
  'pt:6947': { problem: /EncryptedCardData: is required/, why: 'Debt Recovery with the card in clear (see pt:4220)' },
  'en:76': {
    problem: /EncryptedCardData: is required/,
    why: "the English page's typed sale sends the card number in clear",
  },
  'en:278': {
    problem: /AuthenticationMethod: must be one of NoPassword, OnlineAuthentication, OfflineAuthentication/,
    why: 'the example spells "OnlinePassword"; the English table (129) lists NoPassword OnlineAuthentication OfflineAuthentication',
  },
  'en:490': { problem: /AuthenticationMethod: must be one of/, why: '"OnlinePassword" (see en:278)' },
  'en:693': { problem: /AuthenticationMethod: must be one of/, why: '"OnlinePassword" (see en:278)' },
  'en:900': { problem: /AuthenticationMethod: must be one of/, why: '"OnlinePassword" (see en:278)' },
  'en:1101': { problem: /AuthenticationMethod: must be one of/, why: '"OnlinePassword" (see en:278)' },
};

function problemsOf(body: unknown): string[] {
  try {
    validateSale(body as Record<string, unknown>);
    return [];
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return (e.answer.body as { Message: string }[]).map((m) => m.Message);
  }
}

describe("the manual's example requests against the sandbox's request rules", () => {
  const sales = EXAMPLES.filter(
    (e) => e.kind === 'request' && e.method === 'POST' && e.path === '/1/physicalSales' && e.body !== undefined,
  );

  it('the corpus holds the sale examples of both pages', () => {
    expect(sales.length).toBeGreaterThanOrEqual(20);
    expect(sales.some((e) => e.page.includes('/en/'))).toBe(true);
  });

  it.each(sales.map((e) => [at(e), e] as const))('%s', (_name, e) => {
    const key = at(e).split(' ')[0] as string;
    const problems = problemsOf(e.body);
    const refused = REFUSED[key];
    if (refused) expect(problems.join(' | ')).toMatch(refused.problem);
    else expect(problems).toEqual([]);
  });

  it('every refusal listed here names an example of the corpus', () => {
    const keys = new Set(sales.map((e) => at(e).split(' ')[0]));
    for (const k of Object.keys(REFUSED)) expect(keys.has(k)).toBe(true);
  });
});

describe("the manual's example answers read by our client", () => {
  const answers = (method: string, path: RegExp): Example[] =>
    EXAMPLES.filter((e) => e.kind === 'answer' && e.method === method && path.test(e.path) && e.body !== undefined);

  it('sale answers: Status 2 with a PaymentId is approved (pending confirmation)', () => {
    const list = answers('POST', /^\/1\/physicalSales$/);
    expect(list.length).toBeGreaterThanOrEqual(15);
    for (const e of list) {
      const p = (e.body as { Payment?: { Status?: number } }).Payment;
      const outcome = saleOutcome(answer(e, 201));
      if (p?.Status === 2) expect([at(e), outcome.kind]).toEqual([at(e), 'approved']);
      else expect([at(e), outcome.kind]).not.toEqual([at(e), 'approved']);
    }
  });

  it('confirmation answers: ConfirmationStatus 1 is done', () => {
    const list = answers('PUT', /\/confirmation$/).filter((e) => !e.path.includes('/voids/'));
    expect(list.length).toBeGreaterThanOrEqual(4);
    for (const e of list) expect([at(e), operationOutcome('confirm', answer(e)).action]).toEqual([at(e), 'done']);
  });

  it("undo answers (DELETE and the English page's PUT …/undo): ConfirmationStatus 2 is done", () => {
    const list = [
      ...answers('DELETE', /^\/1\/physicalSales\/(\{PaymentId\}|orderId\/\{MerchantOrderId\})$/),
      ...answers('PUT', /\/undo$/),
    ];
    expect(list.length).toBeGreaterThanOrEqual(8);
    for (const e of list) expect([at(e), operationOutcome('undo', answer(e)).action]).toEqual([at(e), 'done']);
  });

  it('void answers of both pages are approved: CancellationStatus 1 (pt), Status 10 + ReturnCode 0 + VoidId (en)', () => {
    const list = answers('POST', /\/voids$/);
    expect(list.filter((e) => e.page.includes('/en/')).length).toBeGreaterThanOrEqual(2);
    expect(list.filter((e) => e.page.includes('/pt/')).length).toBeGreaterThanOrEqual(2);
    for (const e of list) expect([at(e), voidOutcome(answer(e, 201)).kind]).toEqual([at(e), 'approved']);
  });

  it('the void confirmation as the pt page prints it (CancellationStatus 4, ConfirmatinoStatus 1) decides nothing: the client queries', () => {
    const list = answers('PUT', /\/voids\/\{VoidId\}\/confirmation$/);
    expect(list).toHaveLength(1);
    const e = list[0] as Example;
    expect(e.body).toMatchObject({ CancellationStatus: 4, ConfirmatinoStatus: 1 });
    expect(operationOutcome('void-confirm', answer(e)).action).toBe('query');
  });

  it('the void query answer reads as found, authorized (CancellationStatus 1)', () => {
    const list = answers('GET', /\/voids\/\{VoidId\}$/);
    expect(list.length).toBeGreaterThanOrEqual(1);
    for (const e of list) expect(voidQueryOutcome(answer(e))).toMatchObject({ kind: 'found', cancellationStatus: 1 });
  });

  it('the sale query answer reads as found with its Status and ConfirmationStatus', () => {
    const list = answers('GET', /MerchantOrderId/);
    expect(list).toHaveLength(1);
    const p = (list[0]!.body as { Payment: { Status: number; ConfirmationStatus: number } }).Payment;
    expect(queryOutcome(answer(list[0]!))).toMatchObject({
      kind: 'found',
      status: p.Status,
      confirmationStatus: p.ConfirmationStatus,
    });
  });

  it("the English page's void undo answers (DELETE …/voids/…) are read", () => {
    const list = answers('DELETE', /\/voids\//);
    expect(list.length).toBeGreaterThanOrEqual(2);
    for (const e of list)
      expect(['done', 'query', 'needs-refund']).toContain(operationOutcome('void-undo', answer(e)).action);
  });
});

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voidOutcome, operationOutcome } from '../../../src/acquirer/omni/outcomes.js';
import { EMV_CONFIRM, sale, startHarness, voidRequest, type Harness } from '../../helpers/sandbox.js';
import data from './conecta-examples.json' with { type: 'json' };

/**
 * The manual's example answers, served by the sandbox in its dialects: each sandbox answer carries
 * every member the page's example shows (same names, same JSON types), so a client that reads the
 * sandbox reads the page, and the client's outcome tables read both alike.
 */
interface Example {
  page: string;
  line: number;
  kind: string;
  method: string;
  path: string;
  body?: unknown;
}
const EXAMPLES = data.examples as Example[];
const example = (lang: 'pt' | 'en', method: string, path: RegExp): Example => {
  const e = EXAMPLES.find(
    (x) =>
      x.kind === 'answer' &&
      x.page.includes(`/${lang}/`) &&
      x.method === method &&
      path.test(x.path) &&
      x.body !== undefined,
  );
  if (!e) throw new Error(`no ${lang} example answer for ${method} ${String(path)}`);
  return e;
};

/** Members of the example missing from (or typed differently in) the sandbox's answer; Links' contents aside. */
function missing(example: unknown, served: unknown, path = ''): string[] {
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(example as Record<string, unknown>)) {
    const s = (served as Record<string, unknown> | undefined)?.[k];
    if (s === undefined) out.push(`${path}${k}`);
    else if (k !== 'Links' && v !== null && typeof v !== typeof s)
      out.push(`${path}${k} (${typeof v} in the page, ${typeof s} served)`);
    else if (k !== 'Links' && v && typeof v === 'object' && !Array.isArray(v))
      out.push(...missing(v, s, `${path}${k}.`));
  }
  return out;
}

let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness();
  token = await h.acquirer.tokens.token('transactional');
});
afterAll(async () => {
  await h.close();
});

async function call(method: 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown> {
  const r = await request(`${h.running.urls.requests}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return r.body.json();
}

async function confirmedSale(): Promise<string> {
  const a = await h.acquirer.omni.createSale(sale(10000));
  await h.acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM);
  return a.Payment.PaymentId;
}

describe.each(['pt', 'en'] as const)('dialect %s', (lang) => {
  it(`the void create answer carries every member of the ${lang} page's example, and reads as approved`, async () => {
    await h.control('POST', '/sandbox/scenario', { dialect: lang });
    const id = await confirmedSale();
    const served = await call('POST', `/1/physicalSales/${id}/voids`, voidRequest(1000));
    const e = example(lang, 'POST', /\/voids$/);
    // the pt example's Receipt block (the printed slip's fields) is not modelled by the sandbox: listed, not hidden
    const gaps = missing(e.body, served).filter((m) => !(lang === 'pt' && m === 'Receipt'));
    expect([`${e.page}:${e.line}`, gaps]).toEqual([`${e.page}:${e.line}`, []]);
    expect(voidOutcome({ kind: 'answer', status: 201, body: served }).kind).toBe('approved');
  });

  it("the confirmation answer carries every member of the page's example and reads as done", async () => {
    await h.control('POST', '/sandbox/scenario', { dialect: lang });
    const a = await h.acquirer.omni.createSale(sale(10000));
    const served = await call('PUT', `/1/physicalSales/${a.Payment.PaymentId}/confirmation`, EMV_CONFIRM);
    const e = example(lang, 'PUT', /^\/1\/physicalSales\/\{PaymentId\}\/confirmation$/);
    expect([`${e.page}:${e.line}`, missing(e.body, served)]).toEqual([`${e.page}:${e.line}`, []]);
    expect(operationOutcome('confirm', { kind: 'answer', status: 200, body: served }).action).toBe('done');
  });
});

it('the pt void confirmation is served as printed (CancellationStatus 4, ConfirmatinoStatus 1): the client queries', async () => {
  await h.control('POST', '/sandbox/scenario', { dialect: 'pt' });
  const id = await confirmedSale();
  const v = (await call('POST', `/1/physicalSales/${id}/voids`, voidRequest(1000))) as { VoidId: string };
  const served = await call('PUT', `/1/physicalSales/${id}/voids/${v.VoidId}/confirmation`);
  const e = example('pt', 'PUT', /\/voids\/\{VoidId\}\/confirmation$/);
  expect(missing(e.body, served)).toEqual([]);
  expect(served).toMatchObject({ CancellationStatus: 4, ConfirmatinoStatus: 1 });
  expect(operationOutcome('void-confirm', { kind: 'answer', status: 200, body: served }).action).toBe('query');
});

it('the chip sale answer carries every member of the pt example (Crédito por chip com senha online)', async () => {
  const served = await call('POST', '/1/physicalSales', sale(10000));
  const e = EXAMPLES.find(
    (x) =>
      x.kind === 'answer' &&
      x.page.includes('/pt/') &&
      x.method === 'POST' &&
      x.path === '/1/physicalSales' &&
      x.line > 3820 &&
      x.line < 4214,
  );
  expect(e).toBeDefined();
  expect([`${e!.page}:${e!.line}`, missing(e!.body, served)]).toEqual([`${e!.page}:${e!.line}`, []]);
});

import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../../src/acquirer/omni/delivery.js';
import { OmniVoidAdapter } from '../../../../src/acquirer/omni/voids.js';
import { createAcquirer, type Acquirer } from '../../../../src/acquirer/index.js';
import { createLogger } from '../../../../src/core/log/index.js';
import { json, loopback, type Recorded } from '../../../helpers/loopback.js';

/**
 * The delivery adapters over real HTTP on loopback: an answer that decides nothing (a non-2xx,
 * an unclear 2xx) is followed by a query, and the decision is the queried state's (issue 17).
 * The host here answers what each test scripts, in the manual's shapes (page:line cited).
 */
const log = createLogger({ level: 'silent' });
const PID = 'f15889ea-5719-4e1a-a2da-f4e50d5bd702';
const VID = 'a4bc7892-b455-4cd1-b902-c791802cd72b';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

type Script = Record<string, { status: number; body?: unknown } | undefined>;

/** A host answering `METHOD path` from the script (the token always); anything else 404 without body. */
async function host(script: Script): Promise<{ acquirer: Acquirer; seen: Recorded[] }> {
  const s = await loopback((req, res) => {
    if (req.url === '/oauth2/token')
      return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 86399 });
    const a = script[`${req.method} ${req.url}`];
    if (!a) {
      res.writeHead(404);
      res.end();
      return;
    }
    if (a.body === undefined) {
      res.writeHead(a.status);
      res.end();
      return;
    }
    json(res, a.status, a.body);
  });
  cleanup.push(s.close);
  const acquirer = createAcquirer({
    settings: {
      authUrl: s.url,
      requestUrl: s.url,
      queryUrl: s.url,
      parametersUrl: s.url,
      walletUrl: s.url,
      ecommerceUrl: s.url,
      clientId: 'cid',
      timeoutMs: 2000,
    },
    clientSecret: { reveal: () => 's' },
    environment: 'sandbox',
    clock: { now: () => new Date() },
    log,
    dispatcher: new Agent(),
  });
  return { acquirer, seen: s.seen };
}

const calls = (seen: Recorded[]) => seen.filter((r) => r.url !== '/oauth2/token').map((r) => `${r.method} ${r.url}`);

describe('void confirmation answered ambiguously: the void is queried and decides (issue 17)', () => {
  const confirmPath = `PUT /1/physicalSales/${PID}/voids/${VID}/confirmation`;
  const queryPath = `GET /1/physicalSales/${PID}/voids/${VID}`;
  it.each([
    // Conecta pt 2019-07-10-cielo-conecta.md:8595, the void confirmation's literal answer.
    [
      "the manual's CancellationStatus 4 + ConfirmatinoStatus 1",
      { CancellationStatus: 4, ConfirmatinoStatus: 1, Status: 2, ReturnCode: 0, ReturnMessage: 'Success' },
    ],
    ['{}', {}],
    ['null', null],
  ])('%s, then the query shows it confirmed (3) → done', async (_l, body) => {
    const h = await host({
      [confirmPath]: { status: 200, body },
      [queryPath]: { status: 200, body: { VoidId: VID, CancellationStatus: 3, Status: 10 } },
    });
    const d = await new OmniVoidAdapter(h.acquirer.omni).confirmVoid(PID, VID);
    expect(d.action).toBe('done');
    expect(calls(h.seen)).toEqual([confirmPath, queryPath]);
  });

  it('the query shows it still authorized (1, pt :8648) → confirm again; undone (4) → dead letter', async () => {
    const h1 = await host({
      [confirmPath]: { status: 200, body: { CancellationStatus: 4, ConfirmatinoStatus: 1 } },
      [queryPath]: { status: 200, body: { VoidId: VID, CancellationStatus: 1, Status: 10 } },
    });
    expect((await new OmniVoidAdapter(h1.acquirer.omni).confirmVoid(PID, VID)).action).toBe('retry');
    const h2 = await host({
      [confirmPath]: { status: 500, body: [{ Code: 0, Message: 'Internal error' }] },
      [queryPath]: { status: 200, body: { VoidId: VID, CancellationStatus: 4, Status: 2 } },
    });
    expect((await new OmniVoidAdapter(h2.acquirer.omni).confirmVoid(PID, VID)).action).toBe('dead-letter');
  });

  it('a void undo answered 400 with a code is decided by the void query, not by the code', async () => {
    const undoPath = `DELETE /1/physicalSales/${PID}/voids/${VID}`;
    const h = await host({
      [undoPath]: { status: 400, body: [{ Code: 310, Message: 'Payment method doest not support this operation' }] },
      [queryPath]: { status: 200, body: { VoidId: VID, CancellationStatus: 1, Status: 10 } },
    });
    const d = await new OmniVoidAdapter(h.acquirer.omni).undoVoid(PID, VID);
    expect(d.action).toBe('retry');
    expect(calls(h.seen)).toEqual([undoPath, queryPath]);
  });
});

describe('void create in every shape the manual shows', () => {
  it("the English page's {VoidId, Status: 10, ReturnCode: 0} is approved", async () => {
    const h = await host({
      [`POST /1/physicalSales/${PID}/voids`]: {
        status: 201,
        body: { VoidId: VID, Status: 10, ReturnCode: 0, ReturnMessage: 'Success', Links: [] },
      },
    });
    const o = await h.acquirer.omni.settleVoid(PID, {
      MerchantVoidId: '263290010000009',
      MerchantVoidDate: '2026-11-25T12:00:00Z',
      VoidAmount: 100,
      Card: { InputMode: 'Typed' },
    } as never);
    expect(o).toEqual({ kind: 'approved', voidId: VID });
  });
});

describe('confirm and undo answers that decide nothing', () => {
  it("a confirmation answered 400 (a code) is decided by the sale's query: confirmed → done", async () => {
    const h = await host({
      [`PUT /1/physicalSales/${PID}/confirmation`]: {
        status: 400,
        body: [{ Code: 308, Message: 'Transaction not available to capture' }],
      },
      [`GET /1/physicalSales/${PID}`]: {
        status: 200,
        body: { Payment: { PaymentId: PID, Status: 2, ConfirmationStatus: 1 } },
      },
    });
    expect((await new OmniDeliveryAdapter(h.acquirer.omni).confirm(PID)).action).toBe('done');
  });

  // Issue 29 defect 8: 285360d filed the 2xx Status 10/13 confirmation done silently while the same state
  // from the query was a dead letter. Now one table (rules/book.ts CONFIRM) decides both.
  it.each([3, 10, 13])(
    'a confirmation whose 2xx body shows Status %i is a dead letter, as the query showing it is',
    async (status) => {
      const body = { Payment: { PaymentId: PID, Status: status, ConfirmationStatus: 0 } };
      const confirmed = await host({ [`PUT /1/physicalSales/${PID}/confirmation`]: { status: 200, body } });
      const queried = await host({
        [`PUT /1/physicalSales/${PID}/confirmation`]: { status: 500 },
        [`GET /1/physicalSales/${PID}`]: { status: 200, body },
      });
      // What the host showed goes with it (Delivery.shown), for the sale to record (`hostShows`).
      const shown = status === 3 || status === 13 ? 'declined' : 'cancelled';
      expect(await new OmniDeliveryAdapter(confirmed.acquirer.omni).confirm(PID)).toMatchObject({
        action: 'dead-letter',
        shown,
      });
      expect(await new OmniDeliveryAdapter(queried.acquirer.omni).confirm(PID)).toMatchObject({
        action: 'dead-letter',
        shown,
      });
    },
  );

  it('an undo answered 400 ReturnCode 310 is not "undone": it is retried until a query shows it', async () => {
    const h = await host({
      [`DELETE /1/physicalSales/${PID}`]: { status: 400, body: { ReturnCode: '310', ReturnMessage: 'x' } },
    });
    expect((await new OmniDeliveryAdapter(h.acquirer.omni).undo(PID)).action).toBe('retry');
  });

  it('a query answered 404 with the error array (307) is not found; a bare 404 is not', async () => {
    const found = await host({
      ['GET /1/physicalSales/MerchantOrderId/263290010000001']: {
        status: 404,
        body: [{ Code: 307, Message: 'Transaction not found' }],
      },
    });
    expect(await new OmniDeliveryAdapter(found.acquirer.omni).queryByOrderId('263290010000001')).toEqual({
      kind: 'not-found',
    });
    const bare = await host({});
    expect((await new OmniDeliveryAdapter(bare.acquirer.omni).queryByOrderId('263290010000001')).kind).toBe('unknown');
    const empty = await host({ ['GET /1/physicalSales/MerchantOrderId/263290010000001']: { status: 200, body: [] } });
    expect(await new OmniDeliveryAdapter(empty.acquirer.omni).queryByOrderId('263290010000001')).toEqual({
      kind: 'not-found',
    });
  });
});

describe('a sale found by order id is undone only when it is ours', () => {
  const path = 'GET /1/physicalSales/MerchantOrderId/263290010000001';
  const sale = (terminalId: string, amount: number) => ({
    MerchantOrderId: '263290010000001',
    Payment: {
      PaymentId: PID,
      Status: 2,
      ConfirmationStatus: 0,
      Amount: amount,
      PinPadInformation: { TerminalId: terminalId },
    },
  });
  const us = { terminalId: '42004201', subordinatedMerchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718' };

  it("another terminal's sale under the same order id is never reported found", async () => {
    const h = await host({ [path]: { status: 200, body: sale('42009999', 1010) } });
    const q = await new OmniDeliveryAdapter(h.acquirer.omni, us).queryByOrderId('263290010000001', { amount: 1010 });
    expect(q).toMatchObject({
      kind: 'not-ours',
      reason: expect.stringMatching(/not ours: the sale belongs to terminal 42009999/),
    });
  });

  it("ours is found in a list beside another terminal's sale under the same order id", async () => {
    // On cfef2df two sales under one order id read "unknown" before any ownership check: asked for ever.
    const other = { ...(sale('42009999', 1010) as { Payment: Record<string, unknown> }).Payment, PaymentId: 'other' };
    const mine = (sale('42004201', 1010) as { Payment: Record<string, unknown> }).Payment;
    const h = await host({ [path]: { status: 200, body: { Payments: [other, mine] } } });
    const q = await new OmniDeliveryAdapter(h.acquirer.omni, us).queryByOrderId('263290010000001', { amount: 1010 });
    expect(q).toMatchObject({ kind: 'found', paymentId: PID, state: 'approved' });
  });

  it('ours (terminal and amount match) is found with its PaymentId', async () => {
    const h = await host({ [path]: { status: 200, body: sale('42004201', 1010) } });
    const q = await new OmniDeliveryAdapter(h.acquirer.omni, us).queryByOrderId('263290010000001', { amount: 1010 });
    expect(q).toMatchObject({ kind: 'found', paymentId: PID });
  });
});

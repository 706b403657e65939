import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { OmniVoidAdapter } from '../../../src/acquirer/omni/voids.js';
import { attemptUndo } from '../../../src/engine/outbox/undo-race.js';
import {
  EMV_CONFIRM,
  EMV_UNDO,
  emvTags,
  sale,
  startHarness,
  voidRequest,
  type Harness,
} from '../../helpers/sandbox.js';

/** Cents outcomes (docs/sandbox.md and the manual's "Simular respostas" tables), first N = 1 attempt. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ withholdMs: 900, clientTimeoutMs: 400, outcomeAttempts: 1 }); // first-N: these tests retry past a cents outcome
});
afterAll(async () => {
  await h.close();
});

const omni = (): Harness['acquirer']['omni'] => h.acquirer.omni;
/** The outbox's ports: an answer that decides nothing is followed by a query (issue 17). */
const delivery = (): OmniDeliveryAdapter => new OmniDeliveryAdapter(h.acquirer.omni);
const voids = (): OmniVoidAdapter => new OmniVoidAdapter(h.acquirer.omni);

describe('sale cents 10/11/12/19', () => {
  it('12: the answer is withheld past the client timeout, the sale is recorded pending; the query by order id finds it', async () => {
    const req = sale(3512);
    const { outcome } = await omni().authorize(req);
    expect(outcome).toEqual({ kind: 'unknown', reason: 'timeout' });
    const found = await omni().getSaleByOrderId(req.MerchantOrderId);
    expect(found.Payment).toMatchObject({ Status: 2, ConfirmationStatus: 0 });
    // the undo race: undo by order id leaves nothing charged
    await expect(
      omni().settle('undo', () => omni().undoSaleByOrderId(req.MerchantOrderId, EMV_UNDO)),
    ).resolves.toMatchObject({ action: 'done' });
    const l = await h.ledger();
    expect(l.sales.find((s) => s.merchantOrderId === req.MerchantOrderId)?.charged).toBe(0);
  });

  it('a cents outcome applies to the first N attempts only: the second 11 is approved by the card', async () => {
    const first = await omni().authorize(sale(20011));
    const second = await omni().authorize(sale(20011));
    expect(first.outcome.kind).toBe('declined');
    expect(second.outcome.kind).toBe('approved');
  });
});

describe('confirmation and undo cents 20–29 (the sale approved)', () => {
  it('20 approved', async () => {
    const a = await omni().createSale(sale(5020));
    expect(a.Payment.Status).toBe(2);
    await expect(
      omni().settle('confirm', () => omni().confirmSale(a.Payment.PaymentId, EMV_CONFIRM)),
    ).resolves.toMatchObject({ action: 'done' });
  });

  it('21 denied on confirm: the answer decides nothing (query), the query shows it pending (retry), and the retry confirms', async () => {
    const a = await omni().createSale(sale(20021));
    const first = await omni().settle('confirm', () => omni().confirmSale(a.Payment.PaymentId, EMV_CONFIRM));
    expect(first).toMatchObject({ action: 'query' });
    await expect(delivery().confirm(a.Payment.PaymentId, emvTags(EMV_CONFIRM.EmvData))).resolves.toMatchObject({
      action: 'done',
    });
  });

  it('22 timeout on undo: withheld, applied; the repeat says done', async () => {
    const a = await omni().createSale(sale(3522));
    const first = await omni().settle('undo', () => omni().undoSale(a.Payment.PaymentId, EMV_UNDO));
    expect(first).toMatchObject({ action: 'retry', reason: 'transport timeout' });
    await expect(omni().settle('undo', () => omni().undoSale(a.Payment.PaymentId, EMV_UNDO))).resolves.toMatchObject({
      action: 'done',
    });
  });

  it('29 error on undo (500, not applied) → retry; the retry undoes', async () => {
    const a = await omni().createSale(sale(1029));
    const err = await omni()
      .undoSale(a.Payment.PaymentId, EMV_UNDO)
      .catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_HTTP')).toBe(true);
    expect((err as { context: { status: number; outcomeUnknown: boolean } }).context).toMatchObject({
      status: 500,
      outcomeUnknown: true,
    });
    expect((await omni().getSale(a.Payment.PaymentId)).Payment.ConfirmationStatus).toBe(0);
    await expect(omni().settle('undo', () => omni().undoSale(a.Payment.PaymentId, EMV_UNDO))).resolves.toMatchObject({
      action: 'done',
    });
  });
});

describe('confirmation of a denied sale, cents 30–39', () => {
  it('30: the sale is denied, its confirmation approved', async () => {
    const { outcome, answer } = await omni().authorize(sale(5030));
    expect(outcome.kind).toBe('declined');
    const c = await omni().confirmSale(answer?.Payment.PaymentId ?? '', EMV_CONFIRM);
    expect(c).toMatchObject({ Status: 3 });
  });

  it('31 denied, 39 error; outside 30–39 a confirmation of a denied sale is a dead letter (the terminal confirms only what it was told approved: the rulebook), its undo done (Status 3)', async () => {
    const s31 = (await omni().authorize(sale(20031))).answer?.Payment.PaymentId ?? '';
    expect((await omni().settle('confirm', () => omni().confirmSale(s31, EMV_CONFIRM))).action).toBe('query');
    const s39 = (await omni().authorize(sale(1039))).answer?.Payment.PaymentId ?? '';
    const e39 = await omni()
      .confirmSale(s39, EMV_CONFIRM)
      .catch((e: unknown) => e);
    expect((e39 as { context: { status: number } }).context.status).toBe(500);
    const declinedSale = sale(6000, { lastDigit: 2 });
    const declined = (await omni().authorize(declinedSale)).answer?.Payment.PaymentId ?? '';
    expect(await delivery().confirm(declined, emvTags(EMV_CONFIRM.EmvData))).toMatchObject({ action: 'dead-letter' });
    const undo = await attemptUndo(
      delivery(),
      {
        merchantOrderId: declinedSale.MerchantOrderId,
        paymentId: declined,
        sentAt: new Date().toISOString(),
        emv: emvTags(EMV_UNDO.EmvData),
      },
      new Date(),
      { processingWindowMs: 1000 },
    );
    expect(undo.delivery).toMatchObject({ action: 'done', reason: expect.stringMatching(/Status 3/) });
  });
});

describe('voids 40–49 and void confirmations 50–59 (sale approved and confirmed)', () => {
  async function confirmedSale(amount: number): Promise<string> {
    const a = await omni().createSale(sale(amount));
    await omni().confirmSale(a.Payment.PaymentId, EMV_CONFIRM);
    return a.Payment.PaymentId;
  }

  it('40: void approved (CancellationStatus 1), confirmed (3); the ledger charges nothing', async () => {
    const id = await confirmedSale(5040);
    const v = await omni().settleVoid(id, voidRequest(5040));
    expect(v.kind).toBe('approved');
    const voidId = (v as { voidId: string }).voidId;
    await expect(omni().getVoid(id, voidId)).resolves.toMatchObject({ CancellationStatus: 1, Status: 10 });
    await expect(voids().confirmVoid(id, voidId)).resolves.toMatchObject({ action: 'done' });
    const l = await h.ledger();
    expect(l.sales.find((s) => s.paymentId === id)).toMatchObject({ voided: 5040, charged: 0 });
  });

  it('41 denied, 42 timeout (recorded; undo by MerchantVoidId), 49 error', async () => {
    const id41 = await confirmedSale(20041);
    expect((await omni().settleVoid(id41, voidRequest(20041))).kind).toBe('declined');
    const id42 = await confirmedSale(3542);
    const req42 = voidRequest(1000);
    expect(await omni().settleVoid(id42, req42)).toEqual({ kind: 'unknown', reason: 'timeout' });
    await expect(
      omni().settle('void-undo', () => omni().undoVoidByMerchantVoidId(id42, req42.MerchantVoidId)),
    ).resolves.toMatchObject({ action: 'done' });
    const l = await h.ledger();
    expect(l.sales.find((s) => s.paymentId === id42)).toMatchObject({ voided: 0, charged: 3542 });
    const id49 = await confirmedSale(1049);
    expect(await omni().settleVoid(id49, voidRequest(1049))).toEqual({ kind: 'unknown', reason: 'HTTP 500' });
  });

  it('partial voids up to the sale amount; more is VOID_AMOUNT_EXCEEDED; a repeated MerchantVoidId is refused and flagged', async () => {
    const id = await confirmedSale(10000);
    const r1 = voidRequest(4000);
    expect((await omni().settleVoid(id, r1)).kind).toBe('approved');
    // 309 ("not available to void") is also the answer to a void done already: unknown, undone by MerchantVoidId
    expect(await omni().settleVoid(id, voidRequest(7000))).toEqual({ kind: 'unknown', reason: 'HTTP 400, code 309' });
    expect(await omni().settleVoid(id, { ...voidRequest(1000), MerchantVoidId: r1.MerchantVoidId })).toMatchObject({
      kind: 'refused',
      returnCode: 302,
    });
    const l = await h.ledger();
    expect(l.problems.some((p) => p.kind === 'duplicate-merchant-void-id' && p.paymentId === id)).toBe(true);
    expect(l.sales.find((s) => s.paymentId === id)?.charged).toBe(6000);
  });

  it('a void needs the same card and a confirmed sale', async () => {
    const id = await confirmedSale(10100);
    expect(await omni().settleVoid(id, voidRequest(100, 1))).toEqual({ kind: 'unknown', reason: 'HTTP 400, code 309' });
    const pending = await omni().createSale(sale(10200));
    expect(await omni().settleVoid(pending.Payment.PaymentId, voidRequest(100))).toEqual({
      kind: 'unknown',
      reason: 'HTTP 400, code 309',
    });
  });

  it('50 confirm approved, 51 denied (retry then done), 59 error; undo of a pending void by VoidId', async () => {
    const id50 = await confirmedSale(5050);
    const v50 = (await omni().settleVoid(id50, voidRequest(5050))) as { voidId: string };
    await expect(voids().confirmVoid(id50, v50.voidId)).resolves.toMatchObject({ action: 'done' });
    // A confirmed void cannot be undone: the host's error decides nothing, the void's query shows it confirmed: it stands.
    expect((await omni().settle('void-undo', () => omni().undoVoid(id50, v50.voidId))).action).toBe('query');
    await expect(voids().undoVoid(id50, v50.voidId)).resolves.toMatchObject({ action: 'needs-refund' });
    const id51 = await confirmedSale(20051);
    const v51 = (await omni().settleVoid(id51, voidRequest(20051))) as { voidId: string };
    expect((await voids().confirmVoid(id51, v51.voidId)).action).toBe('retry');
    expect((await voids().confirmVoid(id51, v51.voidId)).action).toBe('done');
    const id59 = await confirmedSale(1059);
    const v59 = (await omni().settleVoid(id59, voidRequest(1059))) as { voidId: string };
    expect((await voids().confirmVoid(id59, v59.voidId)).action).toBe('retry');
    await expect(voids().undoVoid(id59, v59.voidId)).resolves.toMatchObject({ action: 'done' });
  });
});

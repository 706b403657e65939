import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { saleOutcome } from '../../../src/acquirer/index.js';
import { deriveTdesKeys, encryptData } from '../../../src/crypto/index.js';
import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { attemptUndo } from '../../../src/engine/outbox/undo-race.js';
import {
  EMV_CONFIRM,
  EMV_UNDO,
  card,
  cardNode,
  emvTags,
  sale,
  startHarness,
  type Harness,
} from '../../helpers/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('omni sales against the sandbox over loopback HTTP', () => {
  it('sale 10 cents: 201, Status 2, pending confirmation, documented members; confirm with chip data', async () => {
    const req = sale(5010);
    const answer = await h.acquirer.omni.createSale(req);
    const p = answer.Payment;
    expect(answer.MerchantOrderId).toBe(req.MerchantOrderId);
    expect(p).toMatchObject({
      Status: 2,
      ConfirmationStatus: 0,
      ReturnCode: '000',
      Amount: 5010,
      Capture: true,
      InitializationVersion: expect.any(Number),
    });
    expect(p.PaymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.EmvResponseData).toBe('8A023030');
    expect(p.Links?.map((l) => l.Rel)).toEqual(['self', 'confirm', 'reverse']);
    expect(p.ReceiptInformation?.find((r) => r.Field === 'CARD_NUMBER')?.Content).toBe(
      `${card(0).pan.slice(0, 6)}-${card(0).pan.slice(-4)}`,
    );
    expect(JSON.stringify(answer)).not.toContain(card(0).pan);
    const confirmed = await h.acquirer.omni.confirmSale(p.PaymentId, EMV_CONFIRM);
    expect(confirmed).toMatchObject({ ConfirmationStatus: 1, Status: 2 });
    const q = await h.acquirer.omni.getSale(p.PaymentId);
    expect(q.Payment).toMatchObject({ Status: 2, ConfirmationStatus: 1 });
    const byOrder = await h.acquirer.omni.getSaleByOrderId(req.MerchantOrderId);
    expect(byOrder.Payment.PaymentId).toBe(p.PaymentId);
  });

  it('sale 11 cents: declined with ReturnCode 05; authorize says declined', async () => {
    const { outcome } = await h.acquirer.omni.authorize(sale(5011));
    expect(outcome).toMatchObject({ kind: 'declined', returnCode: '05' });
  });

  it('sale 19 cents: HTTP 500, nothing recorded, outcome unknown; the query by order id finds nothing (404)', async () => {
    const req = sale(5019);
    const { outcome } = await h.acquirer.omni.authorize(req);
    expect(outcome).toMatchObject({ kind: 'unknown', reason: 'HTTP 500' });
    const err = await h.acquirer.omni.getSaleByOrderId(req.MerchantOrderId).catch((e: unknown) => e);
    expect(isOmniposError(err, 'ACQUIRER_HTTP')).toBe(true);
    expect((err as { context: { status: number } }).context.status).toBe(404);
  });

  it('undo by PaymentId (chip data, IssuerScriptsResults) leaves nothing charged; a second undo is idempotent', async () => {
    const a = await h.acquirer.omni.createSale(sale(7000));
    const id = a.Payment.PaymentId;
    await expect(h.acquirer.omni.undoSale(id, EMV_UNDO)).resolves.toMatchObject({ ConfirmationStatus: 2 });
    await expect(h.acquirer.omni.settle('undo', () => h.acquirer.omni.undoSale(id, EMV_UNDO))).resolves.toMatchObject({
      action: 'done',
    });
    const ledger = await h.ledger();
    expect(ledger.sales.find((s) => s.paymentId === id)?.charged).toBe(0);
  });

  it("a confirmed sale cannot be undone: the host's 4xx decides nothing; the undo race's query shows it confirmed → needs-refund", async () => {
    const req = sale(7100);
    const a = await h.acquirer.omni.createSale(req);
    await h.acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM);
    await expect(
      h.acquirer.omni.settle('undo', () => h.acquirer.omni.undoSale(a.Payment.PaymentId, EMV_UNDO)),
    ).resolves.toMatchObject({ action: 'query' });
    const r = await attemptUndo(
      new OmniDeliveryAdapter(h.acquirer.omni),
      {
        merchantOrderId: req.MerchantOrderId,
        paymentId: a.Payment.PaymentId,
        sentAt: new Date().toISOString(),
        emv: emvTags(EMV_UNDO.EmvData),
      },
      new Date(),
      { processingWindowMs: 1000 },
    );
    expect(r.delivery).toMatchObject({ action: 'needs-refund' });
  });

  it('an undone sale cannot be confirmed: the 4xx is queried; the query shows it undone → dead letter', async () => {
    const a = await h.acquirer.omni.createSale(sale(7200));
    await h.acquirer.omni.undoSale(a.Payment.PaymentId, EMV_UNDO);
    await expect(
      h.acquirer.omni.settle('confirm', () => h.acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM)),
    ).resolves.toMatchObject({ action: 'query' });
    await expect(
      new OmniDeliveryAdapter(h.acquirer.omni).confirm(a.Payment.PaymentId, emvTags(EMV_CONFIRM.EmvData)),
    ).resolves.toMatchObject({ action: 'dead-letter' });
  });

  it('a chip sale confirmed without EmvData is refused naming EmvData; the wrong spelling is named', async () => {
    const a = await h.acquirer.omni.createSale(sale(7300));
    const err = await h.acquirer.omni.confirmSale(a.Payment.PaymentId).catch((e: unknown) => e);
    expect((err as { context: { status: number; returnMessage: string } }).context).toMatchObject({ status: 400 });
    expect((err as { context: { returnMessage: string } }).context.returnMessage).toMatch(/EmvData: is required/);
    const err2 = await h.acquirer.omni
      .undoSale(a.Payment.PaymentId, { EmvData: '9F2701', IssuerScriptResults: '0000' } as never)
      .catch((e: unknown) => e);
    expect((err2 as { context: { returnMessage: string } }).context.returnMessage).toMatch(
      /IssuerScriptResults: unknown member; this operation spells it IssuerScriptsResults/,
    );
  });

  it('a chip confirmation without 95, 9F10, 9F26, 9F27 or 9F37 is refused and flagged (9F0B never required); malformed EMV data is refused', async () => {
    const a = await h.acquirer.omni.createSale(sale(7310));
    const bad = await h.acquirer.omni
      .confirmSale(a.Payment.PaymentId, { EmvData: '9F26', IssuerScriptResults: '0000' })
      .catch((e: unknown) => e);
    expect((bad as { context: { returnMessage: string } }).context.returnMessage).toMatch(/EmvData: not valid BER-TLV/);
    // CONECTA_PT 7554: the tags "devem ser enviadas"; one missing is refused, not only noted.
    const missing = await h.acquirer.omni
      .confirmSale(a.Payment.PaymentId, { EmvData: '9F2608A1B2C3D4E5F607089F270140', IssuerScriptResults: '0000' })
      .catch((e: unknown) => e);
    expect((missing as { context: { returnMessage: string } }).context.returnMessage).toMatch(
      /EmvData: missing tags 95, 9F10, 9F37/,
    );
    const flagged = (await h.ledger()).problems.filter(
      (p) => p.kind === 'confirm-missing-emv-tags' && p.paymentId === a.Payment.PaymentId,
    );
    expect(flagged.map((p) => p.detail)).toEqual(['EmvData: missing tags 95, 9F10, 9F37; refused']);
    await expect(h.acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM)).resolves.toMatchObject({
      ConfirmationStatus: 1,
    });
    const b = await h.acquirer.omni.createSale(sale(7361));
    await h.acquirer.omni.confirmSale(b.Payment.PaymentId, EMV_CONFIRM);
    expect((await h.ledger()).problems.some((p) => p.paymentId === b.Payment.PaymentId)).toBe(false);
    const badSale = sale(7320);
    (badSale.Payment.CreditCard as { EmvData: string }).EmvData = '9F26FF';
    const r = await h.acquirer.omni.authorize(badSale);
    expect(r.outcome).toMatchObject({ kind: 'refused', status: 400 });
    expect((r.outcome as { returnMessage: string }).returnMessage).toMatch(
      /Payment\.CreditCard\.EmvData: not valid BER-TLV/,
    );
  });

  it('typed and stripe sales decrypt CardNumber / TrackTwoData; stripe without PIN', async () => {
    const typed = await h.acquirer.omni.createSale(
      sale(7400, { card: cardNode(card(1), { inputMode: 'Typed', pin: null }) }),
    );
    expect(typed.Payment.Status).toBe(2);
    const stripe = await h.acquirer.omni.createSale(
      sale(7500, { card: cardNode(card(4), { inputMode: 'MagStripe' }), debit: true }),
    );
    expect(stripe.Payment.Status).toBe(2);
    expect(stripe.Payment.EmvResponseData).toBeUndefined();
  });

  it('reads track 2 encrypted as packed nibbles (D separator, F filler) as well as ASCII', async () => {
    const c = card(2);
    const node = cardNode(c);
    const ksn = node.EncryptedCardData?.TrackTwoDataKSN ?? '';
    const nibbles = `${c.pan}D${c.expiry}${c.serviceCode}0000000000`;
    const packed = nibbles.length % 2 === 0 ? nibbles : `${nibbles}F`;
    const key = deriveTdesKeys(SANDBOX_KEYS.bdk, ksn).dataKeyRequest;
    node.TrackTwoData = encryptData(key, packed, { iv: node.EncryptedCardData?.InitializationVector ?? '' })
      .toString('hex')
      .toUpperCase();
    const { outcome } = await h.acquirer.omni.authorize(sale(8270, { card: node, lastDigit: 2 }));
    expect(outcome).toMatchObject({ kind: 'declined', returnCode: '05' });
  });

  it('a card node that does not decrypt is refused naming the field', async () => {
    const node = cardNode(card(0));
    node.TrackTwoData = 'AB'.repeat(16);
    const { outcome } = await h.acquirer.omni.authorize(sale(8300, { card: node }));
    expect((outcome as { returnMessage: string }).returnMessage).toMatch(
      /Payment\.CreditCard\.TrackTwoData: (does not decrypt|the clear text holds no PAN)/,
    );
  });

  it('an expired card (track or typed expiry before the host month) declines with 57', async () => {
    const c = card(0);
    const expired = {
      ...c,
      expiry: '2001',
      track2: `${c.pan}=2001${c.serviceCode}0000000000`,
      expirationDate: '01/2020',
    };
    const { outcome } = await h.acquirer.omni.authorize(sale(8400, { card: cardNode(expired) }));
    expect(outcome).toMatchObject({ kind: 'declined', returnCode: '57' });
    const typed = cardNode(expired, { inputMode: 'Typed', pin: null });
    expect((await h.acquirer.omni.authorize(sale(8500, { card: typed }))).outcome).toMatchObject({
      kind: 'declined',
      returnCode: '57',
    });
  });

  it('Capture false gives Status 1, which the sale table calls an anomaly', async () => {
    const req = sale(8600);
    const res = await h.acquirer.omni.raw(
      'saleCreate',
      {},
      { json: { ...req, Payment: { ...req.Payment, Capture: false } } },
    );
    expect(res.status).toBe(201);
    expect(saleOutcome({ kind: 'answer', status: res.status, body: res.body })).toMatchObject({
      kind: 'anomaly',
      reason: 'authorized-not-captured',
    });
  });

  it('a KSN naming an unregistered KSI is refused, naming the field', async () => {
    const node = cardNode(card(0));
    node.EncryptedCardData = {
      ...(node.EncryptedCardData as NonNullable<typeof node.EncryptedCardData>),
      TrackTwoDataKSN: 'FFFF9876543210E00001',
    };
    const { outcome } = await h.acquirer.omni.authorize(sale(8700, { card: node }));
    expect((outcome as { returnMessage: string }).returnMessage).toMatch(
      /Payment\.CreditCard\.EncryptedCardData\.TrackTwoDataKSN: KSI 87654 is not registered/,
    );
  });

  it('a wrong PIN declines with 55', async () => {
    const { outcome } = await h.acquirer.omni.authorize(sale(7600, { card: cardNode(card(0), { pin: '9999' }) }));
    expect(outcome).toMatchObject({ kind: 'declined', returnCode: '55' });
  });

  it.each([
    [0, 'approved', '000'],
    [1, 'approved', '000'],
    [2, 'declined', '05'],
    [3, 'declined', '57'],
    [4, 'approved', '000'],
    [5, 'declined', '78'],
    [6, 'declined', '99'],
    [7, 'declined', '77'],
    [8, 'declined', '70'],
  ])('last digit %i of the decrypted PAN → %s (%s), 002 card sandbox table', async (digit, kind, code) => {
    const { outcome } = await h.acquirer.omni.authorize(sale(8000 + digit * 100, { lastDigit: digit }));
    expect(outcome.kind).toBe(kind);
    expect((outcome as { returnCode?: string }).returnCode).toBe(code);
  });

  it('last digit 9 is deterministic: even MerchantOrderId approved, odd declined 99', async () => {
    const even = await h.acquirer.omni.authorize(sale(9900, { lastDigit: 9, orderId: '990000000000002' }));
    const odd = await h.acquirer.omni.authorize(sale(9900, { lastDigit: 9, orderId: '990000000000003' }));
    expect(even.outcome.kind).toBe('approved');
    expect(odd.outcome).toMatchObject({ kind: 'declined', returnCode: '99' });
  });
});

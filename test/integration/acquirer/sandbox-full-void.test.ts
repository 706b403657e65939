import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoidRequest } from '../../../src/acquirer/omni/types.js';
import { EMV_CONFIRM, sale, startHarness, voidRequest, type Harness } from '../../helpers/sandbox.js';

/**
 * A kindness the other way (issue 29, the sandbox's list): the full void's own example (Conecta pt
 * page 2019-07-10-cielo-conecta.md lines 8009-8023, at a5c3ddc0a) sends no `VoidAmount`; on cfef2df
 * the sandbox refused it ("VoidAmount: is required"), stricter than the manual. Now what is left of
 * the sale is voided.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function confirmedSale(amount: number): Promise<string> {
  const a = await h.acquirer.omni.createSale(sale(amount));
  await h.acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM);
  return a.Payment.PaymentId;
}

describe('a full void without VoidAmount', () => {
  it("voids what is left of the sale, as the manual's example asks", async () => {
    const id = await confirmedSale(1000);
    const { VoidAmount: _amount, ...full } = voidRequest(1000);
    const v = await h.acquirer.omni.settleVoid(id, full as VoidRequest);
    expect(v.kind).toBe('approved');
  });

  it('after a partial void, voids the rest; with nothing left, refuses', async () => {
    const id = await confirmedSale(1000);
    expect((await h.acquirer.omni.settleVoid(id, voidRequest(400))).kind).toBe('approved');
    const { VoidAmount: _a, ...rest } = voidRequest(600);
    expect((await h.acquirer.omni.settleVoid(id, rest as VoidRequest)).kind).toBe('approved');
    const { VoidAmount: _b, ...none } = voidRequest(1);
    expect((await h.acquirer.omni.settleVoid(id, none as VoidRequest)).kind).not.toBe('approved');
  });
});

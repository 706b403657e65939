import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { loadConfig } from '../../../src/config/index.js';
import { saleQrCode } from '../../../src/engine/qr/code.js';
import type { QrEvent } from '../../../src/engine/qr/engine.js';
import { merchantProfile } from '../../../src/main/merchant.js';
import { parsePadraoq } from '../../../src/qr/index.js';
import { BUILT_IN_MERCHANTS } from '../../../tables/sandbox/merchants.js';
import { shippedConfig, writeConfigWithSecret } from '../../helpers/config.js';
import { qrSaleRequest, qrTerminal } from '../../helpers/qr-terminal.js';
import { nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { walletPays } from '../../helpers/wallet-pay.js';

/**
 * The sandbox's second built-in merchant (tables/sandbox/second-merchant.json) takes wallet QR sales
 * as the first does: its terminal's code names its own merchant number (26.01) and terminal (26.02),
 * the wallet pays it, the host records the sale under that merchant, and the terminal finds it its own
 * and confirms it. On 8230ee6 the terminal's code named the first merchant's number and the wallet
 * refused every payment with 422 `002` "26.02 is not a registered terminal" (41 in session 9's chaos run).
 */
const tempDir = useTempDirs();
const [first, second] = BUILT_IN_MERCHANTS as [(typeof BUILT_IN_MERCHANTS)[0], (typeof BUILT_IN_MERCHANTS)[0]];
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** The second merchant's terminal as its configuration has it (the chaos run's merchant-2). */
function secondMerchantConfig() {
  const env = {
    OMNIPOS_TERMINAL: JSON.stringify({
      subordinatedMerchantId: second.merchant.subordinatedMerchantId,
      terminalId: second.terminal.terminalId,
      ordinal: 1,
      orderIdTerminal: 2001,
      softDescriptor: 'OMNIPOS',
      mode: 'attended',
    }),
  };
  return loadConfig({ path: writeConfigWithSecret(tempDir(), shippedConfig()), env });
}

async function shown(events: QrEvent[]): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const e = events.find((x) => x.type === 'qr');
    if (e) return e.qrCode;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no QR shown');
}

describe("the second merchant's wallet QR sale", () => {
  it('names its own merchant and terminal, is paid under that merchant, and the terminal confirms it', async () => {
    const profile = merchantProfile(secondMerchantConfig());
    expect(profile).toMatchObject({
      merchantNumber: second.merchant.merchantNumber,
      terminalId: second.terminal.terminalId,
      name: second.merchant.name,
    });
    const t = qrTerminal(h, tempDir(), {
      ordinal: 1,
      merchant: profile!,
      host: new OmniDeliveryAdapter(h.acquirer.omni, {
        terminalId: second.terminal.terminalId,
        subordinatedMerchantId: second.merchant.subordinatedMerchantId,
      }),
    });
    const { entry, done } = await t.engine.start(qrSaleRequest(2710));
    const code = await shown(t.events);
    const account = parsePadraoq(code).qrcode_data.merchant_account_information;
    expect(account).toMatchObject({
      id_merchant: second.merchant.merchantNumber,
      id_terminal: second.terminal.terminalId,
    });
    const paid = await walletPays(h.running.urls.wallet, code);
    expect(paid.err).toBe('');
    expect(paid.code).toBe(0);
    await done;
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('confirmed');
    const sale = await h.acquirer.omni.getSaleByOrderId(entry.merchantOrderId);
    expect(sale.Payment).toMatchObject({
      SubordinatedMerchantId: second.merchant.subordinatedMerchantId,
      PinPadInformation: { TerminalId: second.terminal.terminalId },
    });
    t.db.close();
  });

  it("a code naming one merchant's number and another merchant's terminal is still refused 422 002 (26.02)", async () => {
    const profile = merchantProfile(secondMerchantConfig())!;
    const code = saleQrCode(
      { ...profile, merchantNumber: first.merchant.merchantNumber },
      { request: qrSaleRequest(2720), merchantOrderId: nextOrderId(), nsu: '000001', issuedAt: new Date() },
    );
    const refused = await walletPays(h.running.urls.wallet, code);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/26\.02 is not a registered terminal/);
  });
});

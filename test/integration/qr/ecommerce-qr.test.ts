import { walletPays as walletPaysWith } from '../../helpers/wallet-pay.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { loadConfig } from '../../../src/config/index.js';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { qrProvider } from '../../../src/factory/index.js';
import { parsePadraoq } from '../../../src/qr/index.js';
import { Journal, openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { useTempStores } from '../../helpers/store.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { qrSaleRequest, qrTerminal, shownCode } from '../../helpers/qr-terminal.js';

const tempDir = useTempDirs();
const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A terminal whose QR engine uses the adapter the configuration chooses (qr.provider: ecommerce), composed as the daemon does. */
function terminal() {
  const stateDir = tempDir();
  const config = loadConfig({
    env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: stateDir, OMNIPOS_QR__PROVIDER: 'ecommerce' },
  });
  const db = openTerminalDatabase(stateDir);
  const provider = qrProvider(config, h.acquirer, db, new Journal(db), new OmniDeliveryAdapter(h.acquirer.omni));
  expect(provider.codes?.provider).toBe('ecommerce');
  return qrTerminal(h, stateDir, {
    db,
    ordinal: 3,
    host: provider.delivery,
    ...(provider.codes ? { codes: provider.codes } : {}),
  });
}

/** The customer's wallet pays `qr` with the first test card (test/helpers/wallet-pay.ts); its exit code. */
async function walletPays(qr: string): Promise<number> {
  return (await walletPaysWith(h.running.urls.wallet, qr)).code;
}

const sale = qrSaleRequest;

describe("the e-commerce QR code sale behind the QR engine's port (qr.provider: ecommerce), against the sandbox", () => {
  it('the host makes the code (its PaymentId journaled before it is shown), a wallet pays it, the engine sees status 2 and confirms', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(sale(5210, 2));
    const code = shownCode(t.events);
    const parsed = parsePadraoq(code);
    expect(parsed.fields).toMatchObject({ model: 'current', deviceType: 'E', amount: '52.10', installments: '02' });
    const data = t.journal.get(entry.id)!.data as { provider: string; paymentId: string };
    expect(data.provider).toBe('ecommerce');
    expect(
      t.journal
        .transitions(entry.id)
        .slice(0, 3)
        .map((x) => [x.to, x.input]),
    ).toEqual([
      ['started', 'request'],
      ['started', 'code issued by the host'],
      ['showing', 'code shown'],
    ]);
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === data.paymentId)).toMatchObject({
      type: 'qrcode',
      status: 12,
      charged: 0,
      merchantOrderId: entry.merchantOrderId,
    });
    expect(await walletPays(code)).toBe(0);
    await done;
    await t.settle();
    const path = t.journal.transitions(entry.id).map((x) => x.to);
    expect(path.slice(0, 4)).toEqual(['started', 'started', 'showing', 'approved']);
    expect(path.at(-1)).toBe('confirmed');
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === data.paymentId)).toMatchObject({
      status: 2,
      charged: 5210,
    });
    t.db.close();
  });

  it('paid after the cashier cancelled: the late payment is voided at the e-commerce host (status 10), with an alarm', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(sale(5310));
    const code = shownCode(t.events);
    await new Promise((r) => setTimeout(r, 120));
    await t.engine.cancel(entry.id, 'ecr');
    await done;
    expect(t.journal.get(entry.id)?.state).toBe('cancelling');
    expect(await walletPays(code)).toBe(0);
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('undone');
    expect(t.events.some((e) => e.type === 'alarm' && e.code === 'QR_LATE_PAYMENT')).toBe(true);
    const paymentId = (t.journal.get(entry.id)!.data as { paymentId: string }).paymentId;
    expect((await h.ledger()).ecommerce.find((e) => e.paymentId === paymentId)).toMatchObject({
      status: 10,
      charged: 0,
    });
    t.db.close();
  });

  it('a cancelled code nobody pays stays unpaid (12 reads as nothing to undo) and ends cancelled once the watch is over', async () => {
    const t = terminal();
    const { entry, done } = await t.engine.start(sale(5410));
    await t.engine.cancel(entry.id, 'customer');
    await done;
    const db = t.db;
    // Move the watch past the code's validity (60 s here) plus the margin.
    db.prepare("UPDATE outbox SET payload = json_set(payload, '$.until', ?)").run(
      new Date(Date.now() - 1).toISOString(),
    );
    await t.settle();
    expect(t.journal.get(entry.id)?.state).toBe('cancelled');
    t.db.close();
  });

  it('qr.provider: ecommerce without the e-commerce credentials is refused naming the key', () => {
    const config = loadConfig({
      env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: tempDir(), OMNIPOS_QR__PROVIDER: 'ecommerce' },
    });
    const db = tempStore();
    const noEcommerce = { ...h.acquirer, ecommerce: undefined };
    let error: unknown;
    try {
      qrProvider(config, noEcommerce, db, new Journal(db), new OmniDeliveryAdapter(h.acquirer.omni));
    } catch (e) {
      error = e;
    }
    expect(isOmniposError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(/^qr\.provider: ecommerce needs the e-commerce credentials/);
    db.close();
  });
});

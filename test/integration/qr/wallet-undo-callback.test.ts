import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import type { AcquirerDeliveryPort } from '../../../src/engine/ports.js';
import type { QrEvent } from '../../../src/engine/qr/engine.js';
import { parsePadraoq } from '../../../src/qr/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver.js';
import { walletPay } from '../../helpers/cli-process.js';
import { qrTerminal } from '../../helpers/qr-terminal.js';
import { spawnDaemonChild } from '../../helpers/daemon-child.js';

const tempDir = useTempDirs();
let h: Harness;
let partner: CallbackReceiver;
beforeAll(async () => {
  // The partner refuses the first delivery: the sandbox must retry until it answers 2xx.
  partner = await startCallbackReceiver({ failFirst: 1 });
  h = await startHarness({ extra: { walletCallbackUrl: partner.url, callbackRetryMs: 200 } });
});
afterAll(async () => {
  await h.close();
  await partner.close();
});

function child(mode: 'sale' | 'recover', stateDir: string, env: Record<string, string> = {}) {
  const p = spawnDaemonChild('test/integration/qr/qr-daemon-child.ts', [mode], {
    host: h.running,
    stateDir,
    env: { OMNIPOS_ACQUIRER__TIMEOUT_MS: '2000', OMNIPOS_QR__POLL_MS: '100', ...env },
  });
  // Each JSON line it prints, as it comes.
  let out = '';
  const seen: Record<string, unknown>[] = [];
  const lines: ((line: Record<string, unknown>) => void)[] = [];
  p.child.stdout!.on('data', (d: Buffer) => {
    const before = out;
    out += d.toString();
    for (const l of out
      .slice(before.lastIndexOf('\n') + 1)
      .split('\n')
      .slice(0, -1)) {
      if (!l.startsWith('{')) continue;
      const parsed = JSON.parse(l) as Record<string, unknown>;
      seen.push(parsed);
      for (const f of lines) f(parsed);
    }
  });
  const line = (key: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const already = seen.find((l) => key in l);
      if (already) return resolve(already);
      lines.push((l) => key in l && resolve(l));
      void p.exit.then(() => reject(new Error(`child exited before printing ${key}: ${p.err()}`)));
    });
  return { exit: p.exit, line, out: p.out, err: p.err };
}

function expectUndoCallback(
  body: Record<string, unknown>,
  o: { amount: number; authorizationCode: string; nsu: string; qrCode: string },
): void {
  // The wallet document's undo callback payload (000): statusCode 3 reports an undo of a payment (originalTransactionType 1).
  const ts = parsePadraoq(o.qrCode).qrcode_data.payment_information.timestamp; // DDMMYYHHmmss
  expect(body).toEqual({
    transactionDate: `20${ts.slice(4, 6)}-${ts.slice(2, 4)}-${ts.slice(0, 2)}T${ts.slice(6, 8)}:${ts.slice(8, 10)}:${ts.slice(10, 12)}-03:00`,
    terminalLogicalNumber: SANDBOX_MERCHANT.terminal.terminalId,
    authorizationCode: o.authorizationCode,
    nsu: o.nsu,
    merchantId: Number(SANDBOX_MERCHANT.merchant.merchantNumber),
    amount: o.amount / 100,
    originalTransactionType: 1,
    statusCode: 3,
  });
}

describe('wallet QR sale: the terminal killed after it saw the payment, before the receipt was out', () => {
  it('undoes the payment at the next start, and the partner callback receives statusCode 3', async () => {
    const state = tempDir();
    const sale = child('sale', state, { KILL_AT: 'approved', SALE_AMOUNT: '4410' });
    const { merchantOrderId } = (await sale.line('merchantOrderId')) as { merchantOrderId: string };
    const { qrCode } = (await sale.line('qrCode')) as { qrCode: string };
    const paid = await walletPay(qrCode, h.running.urls.wallet, tempDir());
    expect(paid.code, paid.err).toBe(0);
    const answer = JSON.parse(paid.out) as { authorization_code: string; host_nsu: string };
    const killed = await sale.exit;
    expect(killed.signal, sale.err()).toBe('SIGKILL');
    // Paid at the host, pending its confirmation; the terminal's journal stops at approved.
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === merchantOrderId)).toMatchObject({
      charged: 4410,
      confirmationStatus: 0,
    });

    const recovered = child('recover', state);
    const done = await recovered.exit;
    expect(done.code, recovered.err()).toBe(0);
    const { journal, outbox } = JSON.parse(recovered.out().trim().split('\n').at(-1)!) as {
      journal: { merchantOrderId: string; state: string }[];
      outbox: { pending: number };
    };
    expect(journal).toEqual([expect.objectContaining({ merchantOrderId, state: 'undone' })]);
    expect(outbox.pending).toBe(0);
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === merchantOrderId)).toMatchObject({
      charged: 0,
      confirmationStatus: 2,
    });

    const [callback] = await partner.delivered(1);
    expectUndoCallback(callback!, {
      amount: 4410,
      authorizationCode: answer.authorization_code,
      nsu: answer.host_nsu,
      qrCode,
    });
    // The first delivery was refused (503): the same payload came again.
    expect(partner.received.length).toBeGreaterThanOrEqual(2);
    expect(
      partner.received.every((r) => r.method === 'POST' && JSON.stringify(r.body) === JSON.stringify(callback)),
    ).toBe(true);
    expect(scanForCardData(state)).toEqual([]);
  });
});

describe("wallet QR sale: a payment made after the cashier cancelled and after the terminal's first query", () => {
  it('is undone, not kept: the ledger shows nothing charged and the partner callback receives statusCode 3', async () => {
    const omni = new OmniDeliveryAdapter(h.acquirer.omni);
    let queries = 0;
    const port: AcquirerDeliveryPort = {
      confirm: (id, emv) => omni.confirm(id, emv),
      undo: (id, emv) => omni.undo(id, emv),
      undoByOrderId: (id, emv) => omni.undoByOrderId(id, emv),
      queryByOrderId: (id) => {
        queries++;
        return omni.queryByOrderId(id);
      },
    };
    const { db, journal, engine, events, settle } = qrTerminal(h, tempDir(), { ordinal: 2, host: port });
    const before = partner.received.filter((r) => r.answered < 300).length;

    const { entry, done } = await engine.start({
      amount: 4510,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    const shown = events.find((e) => e.type === 'qr') as Extract<QrEvent, { type: 'qr' }>;
    for (let i = 0; i < 200 && queries === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(queries).toBeGreaterThan(0);
    await engine.cancel(entry.id, 'ecr');
    await done;
    expect(journal.get(entry.id)?.state).toBe('cancelling');

    const paid = await walletPay(shown.qrCode, h.running.urls.wallet, tempDir());
    expect(paid.code, paid.err).toBe(0);
    const answer = JSON.parse(paid.out) as { authorization_code: string; host_nsu: string };
    await settle();
    expect(journal.transitions(entry.id).map((t) => t.to)).toEqual(['started', 'showing', 'cancelling', 'undone']);
    expect(events.some((e) => e.type === 'alarm' && e.code === 'QR_LATE_PAYMENT')).toBe(true);
    expect((await h.ledger()).sales.find((s) => s.merchantOrderId === entry.merchantOrderId)).toMatchObject({
      charged: 0,
      confirmationStatus: 2,
    });
    const delivered = await partner.delivered(before + 1);
    expectUndoCallback(delivered.at(-1)!, {
      amount: 4510,
      authorizationCode: answer.authorization_code,
      nsu: answer.host_nsu,
      qrCode: shown.qrCode,
    });
    db.close();
  });
});

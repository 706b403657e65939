import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletPay } from '../../../src/cli/wallet.js';
import { runCli } from '../../../src/cli/run.js';
import { HOST_TIME_ZONE, localTime } from '../../../src/core/clock.js';
import { buildPadraoq } from '../../../src/qr/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { nextOrderId, startHarness, type Harness } from '../../helpers/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function qrFor(orderId: string): string {
  const m = SANDBOX_MERCHANT.merchant;
  const t = localTime(new Date(), HOST_TIME_ZONE);
  const d2 = (n: number): string => String(n).padStart(2, '0');
  const s = Math.floor(t.decisecondsOfDay / 10);
  return buildPadraoq({
    merchantId: m.merchantNumber,
    terminalId: SANDBOX_MERCHANT.terminal.terminalId,
    deviceType: 'P',
    mcc: m.mcc,
    amount: '7.50',
    merchantName: m.name,
    merchantCity: m.city,
    referenceLabel: orderId,
    timestamp: `${d2(t.day)}${d2(t.month)}${d2(t.year % 100)}${d2(Math.floor(s / 3600))}${d2(Math.floor(s / 60) % 60)}${d2(s % 60)}`,
    modality: '0002',
    nsu: '000042',
  });
}

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['wallet', 'pay', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), env }, [
    walletPay,
  ]);
  return { code, out: out.join(''), err: err.join('') };
}

describe('omnipos wallet pay', () => {
  it('pays a terminal QR against the sandbox and prints the answer', async () => {
    const orderId = nextOrderId();
    const r = await run(
      [
        qrFor(orderId),
        '--card',
        '4761730000000011',
        '--cvv',
        '123',
        '--exp',
        '1230',
        '--name',
        'TESTE',
        '--document',
        '52998224725',
      ],
      {
        OMNIPOS_ACQUIRER__WALLET_URL: h.running.urls.wallet,
      },
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ reference_label: orderId, terminal_nsu: '000042' });
    expect((await h.acquirer.omni.getSaleByOrderId(orderId)).Payment.Amount).toBe(750);
  });

  it('refuses any host but the local sandbox', async () => {
    const args = [
      qrFor(nextOrderId()),
      '--card',
      '4761730000000011',
      '--cvv',
      '123',
      '--exp',
      '1230',
      '--name',
      'T',
      '--document',
      '52998224725',
    ];
    const remote = await run(args, { OMNIPOS_ACQUIRER__WALLET_URL: 'https://wallet.example.com' });
    expect(remote.code).toBe(4);
    expect(remote.err).toMatch(/refusing https:\/\/wallet\.example\.com/);
    const homolog = await run(args, {
      OMNIPOS_ACQUIRER__WALLET_URL: h.running.urls.wallet,
      OMNIPOS_ENVIRONMENT: 'homologation',
    });
    expect(homolog.code).toBe(4);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { parsePadraoq, parsePix } from '../../../src/qr/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { decodeTextBlocks, freePort, spawnCli, walletPay } from '../../helpers/cli-process.js';

const tempDir = useTempDirs();

/** The embedded sandbox on a free port (0), the API not probed (0): the command starts its own daemon. */
const inProcess = (stateDir: string): Record<string, string> => ({
  OMNIPOS_STATE_DIR: stateDir,
  OMNIPOS_SANDBOX__PORT: '0',
  OMNIPOS_API__PORT: '0',
  OMNIPOS_QR__POLL_MS: '200',
});

describe('omnipos qr sale as a process, paid by omnipos wallet pay in another process', () => {
  it('with no daemon running: starts one in-process, shows a code that decodes to the string it prints, exits 0 once paid and confirmed', async () => {
    const state = tempDir();
    const sale = spawnCli(['qr', 'sale', '--amount', '2710', '--installments', '3'], inProcess(state));
    const [, walletUrl] = await sale.waitFor(/its wallet API at (http:\/\/\S+?)\)/);
    const [, code] = await sale.waitFor(/copy-and-paste code: (.+)\n/);
    // What a person sees in the terminal decodes (jsQR) to exactly the printed string, which the codec parses.
    expect(decodeTextBlocks(sale.out())).toBe(code);
    const parsed = parsePadraoq(code!);
    expect(parsed.model).toBe('current');
    expect(parsed.qrcode_data.transaction_amount).toBe('27.10');
    expect(parsed.qrcode_data.payment_information.parcelas).toBe('03');
    await sale.waitFor(/waiting for the payment/);
    const paid = await walletPay(code!, walletUrl!, tempDir());
    expect(paid.err).toBe('');
    expect(paid.code).toBe(0);
    const { code: exit } = await sale.exited;
    expect(exit, sale.err()).toBe(0);
    expect(sale.out()).toMatch(/result: confirmed \(confirmed\), MerchantOrderId \d{15}, PaymentId [0-9a-f-]{36}/);
  });

  it("with qr.provider ecommerce: the e-commerce QR sale's code (device type E), paid by the wallet, exits 0", async () => {
    const state = tempDir();
    const sale = spawnCli(['qr', 'sale', '--amount', '2610'], {
      ...inProcess(state),
      OMNIPOS_QR__PROVIDER: 'ecommerce',
    });
    const [, walletUrl] = await sale.waitFor(/its wallet API at (http:\/\/\S+?)\)/);
    const [, code] = await sale.waitFor(/copy-and-paste code: (.+)\n/);
    expect(decodeTextBlocks(sale.out())).toBe(code);
    expect(parsePadraoq(code!).fields).toMatchObject({ deviceType: 'E', amount: '26.10' });
    await sale.waitFor(/• PaymentId [0-9a-f-]{36}\n/);
    expect((await walletPay(code!, walletUrl!, tempDir())).code).toBe(0);
    const { code: exit } = await sale.exited;
    expect(exit, sale.err()).toBe(0);
    expect(sale.out()).toMatch(/result: confirmed/);
  });

  it('with a daemon running (omnipos run): uses its API with the token from the state directory', async () => {
    const state = tempDir();
    const apiPort = await freePort();
    const daemon = spawnCli(['run'], {
      OMNIPOS_STATE_DIR: state,
      OMNIPOS_SANDBOX__PORT: '0',
      OMNIPOS_API__PORT: String(apiPort),
      OMNIPOS_QR__POLL_MS: '200',
      OMNIPOS_LOG__LEVEL: 'info',
    });
    try {
      const [started] = await daemon.waitFor(/.*"omnipos started".*\n/);
      const walletUrl = (JSON.parse(started) as { sandboxWallet: string }).sandboxWallet;
      const sale = spawnCli(['qr', 'sale', '--amount', '2810'], {
        OMNIPOS_STATE_DIR: state,
        OMNIPOS_API__PORT: String(apiPort),
      });
      await sale.waitFor(new RegExp(`omnipos daemon at http://127\\.0\\.0\\.1:${apiPort}`));
      const [, code] = await sale.waitFor(/copy-and-paste code: (.+)\n/);
      expect((await walletPay(code!, walletUrl, tempDir())).code).toBe(0);
      const { code: exit } = await sale.exited;
      expect(exit, sale.err()).toBe(0);
      expect(sale.out()).toMatch(/result: confirmed/);
      // The sale lives in the daemon's journal: its API lists it confirmed.
      const token = readFileSync(path.join(state, 'api-token'), 'utf8').trim();
      const list = await request(`http://127.0.0.1:${apiPort}/v1/payments?status=confirmed`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await list.body.json()) as { payments: { method: string; amount: number }[] };
      expect(body.payments).toEqual([expect.objectContaining({ method: 'wallet-qr', amount: 2810 })]);
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });

  it('Ctrl-C (SIGINT) cancels the sale at the terminal: exit 6, the terminal watching for a late payment', async () => {
    const state = tempDir();
    const sale = spawnCli(['qr', 'sale', '--amount', '2910'], inProcess(state));
    await sale.waitFor(/waiting for the payment/);
    sale.child.kill('SIGINT');
    const { code } = await sale.exited;
    expect(code, sale.err()).toBe(6);
    expect(sale.out()).toMatch(/Ctrl-C: cancelling the payment/);
    expect(sale.out()).toMatch(/result: cancelling \(cancelled\)/);
    expect(sale.err()).toMatch(/the payment ended cancelling: cancelled by ecr/);
    expect(sale.out()).toMatch(/the next omnipos start keeps watching/);
  });

  it('a code nobody pays expires: exit 5, said on standard error', async () => {
    const state = tempDir();
    // 30 s is the shortest validity the configuration accepts (the daemon and its sandbox share it).
    const sale = spawnCli(['qr', 'sale', '--amount', '3010'], {
      ...inProcess(state),
      OMNIPOS_QR__VALIDITY_SECONDS: '30',
    });
    await sale.waitFor(/waiting for the payment, 0:(30|29|28) left/);
    const { code } = await sale.exited;
    expect(code, sale.err()).toBe(5);
    expect(sale.out()).toMatch(/result: expiring \(cancelled\)/);
    expect(sale.err()).toMatch(/the payment ended expiring: the code expired unpaid/);
  }, 90_000);

  it('no daemon, and none can start here (its sandbox port is taken): exit 3 with the reason', async () => {
    const { createServer } = await import('node:net');
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      let err = '';
      const code = await runCli(['qr', 'sale', '--amount', '100'], {
        out: () => undefined,
        err: (t) => void (err += t),
        env: { ...inProcess(tempDir()), OMNIPOS_SANDBOX__PORT: String(port) },
      });
      expect(code).toBe(3);
      expect(err).toMatch(
        /none could start here: the embedded sandbox host cannot listen on 127\.0\.0\.1:\d+: the address is in use/,
      );
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });

  it('bad arguments exit 2 with the flag named', async () => {
    let err = '';
    const ctx = { out: () => undefined, err: (t: string) => void (err += t), env: { OMNIPOS_STATE_DIR: tempDir() } };
    expect(await runCli(['qr', 'sale', '--amount', '10.50'], ctx)).toBe(2);
    expect(err).toMatch(/--amount: expected a whole number of cents/);
    expect(
      await runCli(
        ['pix', 'sale', '--amount', '1000', '--payer-name', 'Maria', '--payer-document', '12345678900'],
        ctx,
      ),
    ).toBe(2);
    expect(err).toMatch(/--payer-document: expected a valid CPF/);
    let usage = '';
    expect(await runCli(['qr', 'sale', '--help'], { ...ctx, out: (t) => void (usage += t) })).toBe(0);
    expect(usage).toMatch(/Exit codes: 0 paid and confirmed/);
  });
});

describe('omnipos pix sale as a process', () => {
  it('shows the BR Code, exits 0 once the payer paid it', async () => {
    const state = tempDir();
    const sale = spawnCli(
      ['pix', 'sale', '--amount', '1990', '--payer-name', 'Maria da Silva', '--payer-document', '529.982.247-25'],
      inProcess(state),
    );
    const [, sandboxUrl] = await sale.waitFor(/sandbox host at (http:\/\/\S+?),/);
    const [, code] = await sale.waitFor(/copy-and-paste code: (.+)\n/);
    expect(decodeTextBlocks(sale.out())).toBe(code);
    expect(parsePix(code!)).toMatchObject({ transactionAmount: '19.90', type: 'dynamic' });
    const [, paymentId] = await sale.waitFor(/• PaymentId (\S+)\n/);
    const pay = await request(`${sandboxUrl}/sandbox/pix/${paymentId}/pay`, { method: 'POST' });
    expect(pay.statusCode).toBe(200);
    await pay.body.dump();
    const { code: exit } = await sale.exited;
    expect(exit, sale.err()).toBe(0);
    expect(sale.out()).toMatch(/result: confirmed/);
  });
});

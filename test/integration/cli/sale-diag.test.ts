import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../../helpers/daemon.js';
import { runCliCaptured } from '../../helpers/cli.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestDaemon();
  const port = new URL(t.apiUrl).port;
  // The commands find the daemon as a technician's would: its address and state directory from the configuration.
  env = {
    OMNIPOS_STATE_DIR: t.config.stateDir,
    OMNIPOS_API__PORT: port,
    OMNIPOS_ACQUIRER__AUTH_URL: t.sandbox.urls.authorization,
  };
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const cli = (argv: string[], e: Record<string, string> = env) => runCliCaptured(argv, e);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function idle() {
  for (let i = 0; i < 400 && t.busy; i++) await new Promise((r) => setTimeout(r, 25));
}

describe('omnipos sale, against the running daemon', () => {
  it('runs a whole chip sale: the pinpad prompts from the event stream, each step, the result; exit 0', async () => {
    const r = await cli(['sale', '--amount', '1010']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/• sale \d+ of R\$ 10,10, credit \(MerchantOrderId \d{15}\)/);
    expect(r.out).toMatch(/pinpad: .*CART/i);
    expect(r.out).toMatch(/\[3\/9\] authorizing \(pending\)/);
    expect(r.out).toContain('result: confirmed');
    expect(r.out).toMatch(/card 476173\*{6}0060 \(Emv\), Visa tBand 01/);
    expect(r.out).toMatch(/authorization \w+, NSU \d{6}, PaymentId [0-9a-f-]{36}/);
    // The steps arrive in the journal's order.
    const steps = [...r.out.matchAll(/\[(\d)\/9\]/g)].map((m) => Number(m[1]));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    await idle();
  }, 60_000);

  it('--json prints the final payment only; a declined sale exits 5', async () => {
    const r = await cli(['sale', '--amount', '1010', '--method', 'credit', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      status: 'confirmed',
      method: 'credit',
      amount: 1010,
      fiscal: { acquirerCnpj: '01027058000191' },
    });
    await idle();
    const declined = await cli(['sale', '--amount', '1011', '--json']);
    expect(declined.code).toBe(5);
    expect(JSON.parse(declined.out)).toMatchObject({ status: 'declined' });
    await idle();
  }, 60_000);

  it('refuses bad arguments with exit 2 naming the option, before any request', async () => {
    for (const args of [
      ['--amount', '0'],
      ['--amount', '10.5'],
      ['--amount', '100', '--method', 'cash'],
      ['--amount', '100', '--installments', '100'],
      [],
    ]) {
      const r = await cli(['sale', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/--amount|--method|--installments/);
    }
  });

  it('with no daemon listening, says how to start one and exits 3', async () => {
    const r = await cli(['sale', '--amount', '1010'], { ...env, OMNIPOS_API__PORT: String(await freePort()) });
    expect(r.code).toBe(3);
    expect(r.err).toContain('no omnipos daemon answers at http://127.0.0.1:');
    expect(r.err).toContain('omnipos start');
    expect(r.err).toContain('npm start');
  });
});

describe('omnipos diag', () => {
  const tempDir = useTempDirs();
  it('from the running daemon: pinpad, printer, tables, outbox from its health; the acquirer and its Date header probed', async () => {
    const r = await cli(['diag', '--json']);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      source: 'daemon',
      daemon: { running: true },
      pinpad: { connected: true, secure: true },
      printer: { kind: 'virtual', reachable: true },
      acquirer: { reachable: true },
      keys: { pinKeySlot: 1, pinKeyPresent: true, dataKeySlot: 2, dataKeyPresent: true },
    });
    expect(report.tables.version).toMatch(/^\d{13}$/);
    expect(report.outbox).toEqual({ ...t.outbox.depth(), awaitingHostClose: 0 });
    // Same machine, same clock: the Date header (1 s resolution) is within 1.5 s.
    expect(Math.abs(report.clock.offsetMs)).toBeLessThanOrEqual(1500);
    expect(r.code).toBe(report.status === 'ok' ? 0 : 3);
    const text = await cli(['diag']);
    expect(text.out).toMatch(/^status {5}(ok|degraded)/);
    expect(text.out).toMatch(/^pinpad .*secure session yes/m);
    expect(text.out).toMatch(/^clock .*Date header is -?\d+\.\d s/m);
  });

  it('with no daemon: opens the (virtual) pinpad and printer itself and reads the key slots; the acquirer unreachable makes it exit 3', async () => {
    const state = tempDir('omnipos-diag-');
    const r = await cli(['diag', '--json'], {
      OMNIPOS_STATE_DIR: state,
      OMNIPOS_API__PORT: String(await freePort()),
      OMNIPOS_ACQUIRER__AUTH_URL: `http://127.0.0.1:${await freePort()}`,
    });
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      source: 'probe',
      daemon: { running: false },
      pinpad: { connected: true, secure: true, model: expect.any(String) },
      keys: { pinKeyPresent: true, dataKeyPresent: true },
      printer: { condition: 'idle' },
      acquirer: { reachable: false },
      tables: { version: null },
      outbox: { pending: 0, deadLetters: 0 },
    });
    expect(report.problems.some((p: string) => p.startsWith('acquirer: unreachable'))).toBe(true);
    expect(r.code).toBe(3);
  }, 30_000);
});

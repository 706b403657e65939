import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatedCardPort } from '../../../src/adapters/simulated-card.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import type {
  AcquirerBackend,
  AcquirerDeliveryPort,
  AcquirerProvisioning,
  HostOperationOf,
  Delivery,
  HostSaleState,
  PixCreatePort,
  SaleAuthorizationPort,
  SaleOrder,
  SaleQuery,
  VoidDeliveryPort,
  VoidHostPort,
  WalletCancellationPort,
} from '../../../src/engine/ports.js';
import { SaleEngine } from '../../../src/engine/sale/engine.js';
import type { HostSaleOutcome } from '../../../src/engine/sale/types.js';
import type { HostVoidOutcome } from '../../../src/engine/void/types.js';
import { omniClientsOf, type AcquirerKindEntry } from '../../../src/factory/index.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase } from '../../../src/store/index.js';
import { acquirerFiles, codeOf } from '../../../scripts/house/acquirer-files.js';
import { startTestDaemon } from '../../helpers/daemon.js';
import { sandboxAnswer } from '../../helpers/initialization-tables.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { TEST_EXPIRY_KEY } from '../../helpers/store.js';

/**
 * A second acquirer, as small as one can be: a backend that keeps its sales in memory and speaks
 * only the engine's words. It is a whole entry of the factory's table (src/factory/acquirer-backend.ts
 * `AcquirerKindEntry`): every port of AcquirerBackend, the technician's AcquirerProvisioning and the
 * operation names of the metrics (src/engine/ports.ts), so this file does not compile when the
 * interface asks for something a backend cannot give, and one card sale runs through the real
 * SaleEngine, journal and outbox with it; `omnipos register` would take it as it is. Beside it, the measure:
 * how many files of src/ a second acquirer touches (docs/architecture.md, "Adding an acquirer").
 */
const tempDir = useTempDirs();

/** A stub host: its own sale states, mapped to the engine's words in one place, as a real backend's table would. */
class StubHost {
  readonly sales = new Map<string, { paymentId: string; amount: number; state: 'paid' | 'settled' | 'reversed' }>();
  readonly calls: string[] = [];
  static readonly WORDS: Record<'paid' | 'settled' | 'reversed', HostSaleState> = {
    paid: 'approved',
    settled: 'confirmed',
    reversed: 'undone',
  };
}

/** The stub's initialization tables (undefined: it has none); the daemon's test serves the sandbox's answer. */
function stubBackend(host: StubHost, tables?: () => unknown): AcquirerBackend {
  let n = 0;
  const sales: SaleAuthorizationPort = {
    authorize(order: SaleOrder): Promise<HostSaleOutcome> {
      host.calls.push(`authorize ${order.merchantOrderId} ${order.request.amount}`);
      const paymentId = `stub-${++n}`;
      host.sales.set(order.merchantOrderId, { paymentId, amount: order.request.amount, state: 'paid' });
      return Promise.resolve({ kind: 'approved', paymentId, authorizationCode: '000042' });
    },
  };
  const byPayment = (id: string) => [...host.sales.values()].find((s) => s.paymentId === id);
  const settle = (id: string, to: 'settled' | 'reversed'): Promise<Delivery> => {
    host.calls.push(`${to} ${id}`);
    const sale = byPayment(id);
    if (!sale) return Promise.resolve({ action: 'retry', reason: 'no such sale yet' });
    sale.state = to;
    return Promise.resolve({ action: 'done', reason: to });
  };
  const delivery: AcquirerDeliveryPort = {
    confirm: (id) => settle(id, 'settled'),
    undo: (id) => settle(id, 'reversed'),
    undoByOrderId: (orderId) => {
      const sale = host.sales.get(orderId);
      return sale ? settle(sale.paymentId, 'reversed') : Promise.resolve({ action: 'retry', reason: 'not found yet' });
    },
    queryByOrderId: (orderId): Promise<SaleQuery> => {
      const sale = host.sales.get(orderId);
      return Promise.resolve(
        sale
          ? { kind: 'found', paymentId: sale.paymentId, state: StubHost.WORDS[sale.state], detail: sale.state }
          : { kind: 'not-found' },
      );
    },
  };
  const voids: VoidHostPort & VoidDeliveryPort = {
    void: (): Promise<HostVoidOutcome> =>
      Promise.resolve({ kind: 'declined', returnMessage: 'the stub voids nothing' }),
    confirmVoid: () => Promise.resolve({ action: 'dead-letter', reason: 'the stub voids nothing' }),
    undoVoid: () => Promise.resolve({ action: 'done', reason: 'nothing was voided' }),
    undoVoidByMerchantVoidId: () => Promise.resolve({ action: 'done', reason: 'nothing was voided' }),
  };
  const walletCancellations: WalletCancellationPort = { applied: () => Promise.resolve(undefined) };
  const pix: PixCreatePort = {
    create: () => Promise.resolve({ kind: 'failed', reason: 'the stub has no Pix' }),
    status: () => Promise.resolve({ kind: 'unknown', reason: 'the stub has no Pix' }),
    void: () => Promise.resolve({ kind: 'unknown', reason: 'the stub has no Pix' }),
  };
  return {
    kind: 'stub',
    sales,
    delivery,
    voids,
    walletCancellations,
    qrCodes: undefined,
    pix,
    initialization: {
      download: () => (tables ? Promise.resolve(tables()) : Promise.reject(new Error('the stub has no tables'))),
    },
    probe: () => Promise.resolve(),
  };
}

/** The technician's side of the stub: its own store and terminal records, in the engine's words. */
function stubProvisioning(host: StubHost): AcquirerProvisioning {
  const stores = new Map<string, Readonly<Record<string, unknown>>>();
  const found = (merchantId: string) => {
    const answer = stores.get(merchantId);
    if (!answer) return Promise.reject(new Error(`no store ${merchantId}`));
    return Promise.resolve({ merchantId, tradeName: String(answer.name), answer });
  };
  return {
    kind: 'stub',
    initialization: (t) => ({
      request: 'stub tables',
      sent: { serial: t.facts.serialNumber ?? '-' },
      source: { download: () => Promise.reject(new Error('the stub has no tables')) },
    }),
    registerStore: (fields) => {
      const merchantId = `store-${stores.size + 1}`;
      stores.set(merchantId, { ...fields, id: merchantId });
      host.calls.push(`store ${merchantId}`);
      return found(merchantId);
    },
    store: found,
    registerTerminal: (t) => {
      host.calls.push(`terminal ${t.terminalId} for ${t.merchantId}`);
      return Promise.resolve({ terminal: t.terminalId });
    },
    wallet: undefined,
    close: () => Promise.resolve(),
  };
}

/** The stub's requests as the engine names them (it has no HTTP: nothing to place). */
const stubOperationOf: HostOperationOf = () => 'other';

/** The entry a second acquirer has in its folder (src/acquirer/<kind>/entry.ts, as omni's `OMNI_ENTRY`), as this stub would. */
const STUB_KIND: AcquirerKindEntry = {
  backend: () => ({ backend: stubBackend(new StubHost()), close: () => Promise.resolve() }),
  provisioning: () => stubProvisioning(new StubHost()),
  operationOf: stubOperationOf,
  probe: () => ({
    where: 'stub:',
    ask: () => Promise.resolve({ reachable: true, httpStatus: 200 }),
    close: () => Promise.resolve(),
  }),
};

describe('a second acquirer: a stub AcquirerBackend', () => {
  it('compiles, and one card sale runs through the engine with it: authorized, confirmed through the outbox', async () => {
    const host = new StubHost();
    const backend = stubBackend(host);
    const db = openTerminalDatabase(tempDir());
    const journal = new Journal(db);
    const outbox = new Outbox(db);
    const log = createLogger({ level: 'silent' });
    const engine = new SaleEngine({
      expiryKey: TEST_EXPIRY_KEY,
      db,
      journal,
      outbox,
      orderIds: new MerchantOrderIds(db, { ordinal: 1, clock: systemClock }),
      card: new SimulatedCardPort(),
      host: backend.sales,
      receipt: { print: () => Promise.resolve('printed') },
      clock: systemClock,
      log,
      attended: true,
      ecrDecisionMs: 60_000,
      closeMarginMs: 60_000,
    });
    const forwarder = new OutboxForwarder({
      db,
      outbox,
      port: backend.delivery,
      ...(backend.pix ? { pix: backend.pix } : {}),
      voids: backend.voids,
      clock: systemClock,
      log,
      onSettled: (t, d) => engine.settled(t, d),
      undoRace: { processingWindowMs: 1000 },
    });
    const { entry, done } = await engine.start({
      amount: 1010,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    await done;
    await forwarder.runOnce();
    const row = journal.get(entry.id)!;
    expect(row.state).toBe('confirmed');
    expect(host.calls).toEqual([`authorize ${row.merchantOrderId} 1010`, 'settled stub-1']);
    expect(await backend.delivery.queryByOrderId(row.merchantOrderId)).toMatchObject({
      kind: 'found',
      state: 'confirmed',
    });
    db.close();
  });

  it("its provisioning registers a store and a terminal in the engine's words, as omnipos register asks", async () => {
    const host = new StubHost();
    const p = stubProvisioning(host);
    const store = await p.registerStore({ name: 'PADARIA' });
    expect(store).toMatchObject({ merchantId: 'store-1', tradeName: 'PADARIA' });
    expect(await p.store('store-1')).toMatchObject({ merchantId: 'store-1' });
    await p.registerTerminal({ merchantId: store.merchantId, terminalId: '42004299' });
    expect(host.calls).toEqual(['store store-1', 'terminal 42004299 for store-1']);
    expect(
      p.initialization({
        merchantId: 'store-1',
        terminalId: '42004299',
        facts: { contactless: false, paymentApplicationVersion: '1' },
      }).sent,
    ).toEqual({ serial: '-' });
    expect(STUB_KIND.operationOf('POST', '/anything')).toBe('other');
    await p.close();
  });
});

describe('the daemon with a stub kind (DaemonDeps.acquirerKind: the factory entry a second acquirer adds)', () => {
  it('starts, exposes the stub as its backend, and takes a card sale through the API to confirmed on it', async () => {
    const host = new StubHost();
    let closed = 0;
    // The stub serves the sandbox's published tables (the virtual pinpad's card needs products): the
    // initialization source is the backend's, and the daemon installs what it downloads.
    const kind: AcquirerKindEntry = {
      ...STUB_KIND,
      backend: () => ({
        backend: stubBackend(host, sandboxAnswer),
        close: () => {
          closed++;
          return Promise.resolve();
        },
      }),
    };
    const t = await startTestDaemon({ prefix: 'omnipos-stub-kind-', deps: { acquirerKind: kind } });
    try {
      expect(t.daemon.backend.kind).toBe('stub');
      expect(() => omniClientsOf(t.daemon.backend)).toThrow(/not built by the omni entry/);
      const created = await t.call('POST', '/v1/payments', { amount: 1010, method: 'credit' });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const id = created.body.id as number;
      let status = '';
      for (let i = 0; i < 800 && status !== 'confirmed'; i++) {
        await t.daemon.forwarder.runOnce();
        status = String((await t.call('GET', `/v1/payments/${id}`)).body.status);
        if (['declined', 'failed', 'cancelled'].includes(status)) break;
        if (status !== 'confirmed') await new Promise((res) => setTimeout(res, 25));
      }
      expect(status).toBe('confirmed');
      const orderId = t.journal.get(id)!.merchantOrderId;
      expect(host.calls).toEqual([`authorize ${orderId} 1010`, 'settled stub-1']);
    } finally {
      await t.stop();
    }
    expect(closed).toBe(1);
  }, 60_000);
});

/* ----------------------------------------------------- what a second acquirer touches */

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The measure, as `npx tsx scripts/house/acquirer-files.ts` prints it. */
const { src: SRC, outsideBackends, naming, omniClients } = acquirerFiles(ROOT);
const code = (file: string): string => codeOf(ROOT, file);

describe('the files a second acquirer touches', () => {
  it('the engine imports nothing from src/acquirer and reads no host status number', () => {
    const engine = SRC.filter((f) => f.startsWith('src/engine/'));
    expect(engine.filter((f) => /from '(\.\.\/)+acquirer\//.test(code(f)))).toEqual([]);
    expect(engine.filter((f) => /[Ss]tatus\s*[!=]==?\s*\d/.test(code(f)))).toEqual([]);
    expect(engine.filter((f) => /confirmationStatus|cancellationStatus/.test(code(f)))).toEqual([]);
  });

  it('outside its own folder src/acquirer/<kind>/, a backend is named in 2 files, both generated from the folders', () => {
    // Where the kinds are listed (the configuration's registry) and where each kind gets its backend (the
    // factory's, keyed by every kind, so a kind without a backend does not compile): both written by
    // `npm run generate` from the folders (scripts/generate/acquirer-kinds.ts), so no hand edit names a kind.
    expect(naming).toEqual(['src/config/acquirer-registry.ts', 'src/factory/acquirer-registry.ts']);
    for (const f of naming)
      expect(readFileSync(path.join(ROOT, f), 'utf8')).toMatch(/^\/\/ Generated by `npm run generate`/);
    // Every other part takes the backend it is given: the daemon's composition root reads only the factory
    // (through src/main/acquirer-connections.ts), the technician's commands (init, register, wallet pay) the
    // same factory's provisioning, the metrics its operation names.
    const callers = outsideBackends.filter((f) => /\bacquirerBackend\(/.test(code(f)));
    expect(callers.sort()).toEqual(['src/factory/acquirer-backend.ts', 'src/main/acquirer-connections.ts']);
    const provisioning = outsideBackends.filter((f) => /\bacquirerProvisioning\(/.test(code(f)));
    expect(provisioning.sort()).toEqual([
      'src/cli/init.ts',
      'src/cli/register.ts',
      'src/cli/wallet.ts',
      'src/factory/acquirer-backend.ts',
    ]);
    const operations = outsideBackends.filter((f) => /\bhostOperationOf\(/.test(code(f)));
    expect(operations.sort()).toEqual(['src/factory/acquirer-backend.ts', 'src/main/metrics.ts']);
  });

  it("the daemon's composition root builds no omni client and exposes the backend, not omni's clients", () => {
    // The kind's entry builds its own clients (acquirerFromConfig for omni, in src/acquirer/omni/entry.ts):
    // outside src/acquirer only the factory's helpers of that entry (addresses, QR provider) build or name them; the card-not-present
    // port's ecommerce kind is offered by that entry on the e-commerce client it built (no second set).
    expect(omniClients).toEqual(['src/factory/acquirer-urls.ts', 'src/factory/qr-provider.ts']);
    for (const f of [
      'src/main.ts',
      'src/main/start-base.ts',
      'src/main/start-engines.ts',
      'src/main/start-doors.ts',
      'src/main/daemon.ts',
      'src/main/acquirer-connections.ts',
    ])
      expect(code(f), f).not.toMatch(/from '(\.\.?\/)+acquirer\/|\bacquirerFromConfig\b|\bomniBackend\b/);
  });

  it('the commands and the metrics import nothing from src/acquirer: a second acquirer changes no CLI file', () => {
    const cli = SRC.filter((f) => f.startsWith('src/cli/'));
    expect(cli.filter((f) => /from '(\.\.\/)+acquirer\//.test(code(f)))).toEqual([]);
    expect(cli.filter((f) => /\bacquirerFromConfig\(|\bcreateAcquirer\(/.test(code(f)))).toEqual([]);
    expect(code('src/main/metrics.ts')).not.toMatch(/from '\.\.\/acquirer\//);
  });
});

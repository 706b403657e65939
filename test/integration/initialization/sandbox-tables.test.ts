import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  candidateProducts,
  InitializationStore,
  parseInitialization,
  paymentTypeOf,
  TableSet,
  type InitializationTables,
} from '../../../src/initialization/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { useTempStores } from '../../helpers/store.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';

/** BrandId of the nine card schemes (tables/initialization/brands.json). */
const BRANDS_OF_SCHEMES = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
const tempStore = useTempStores();
let h: Harness;
let tables: InitializationTables;
let set: TableSet;

beforeAll(async () => {
  h = await startHarness();
  // Downloaded from the sandbox over loopback, as `omnipos init` will, then validated.
  tables = parseInitialization(
    await h.acquirer.omni.initialization(
      SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
      SANDBOX_MERCHANT.terminal.terminalId,
    ),
  );
  set = new TableSet(tables);
});
afterAll(async () => {
  await h.close();
});

describe('the sandbox initialization tables', () => {
  it('cover the nine card schemes and voucher brands; credit, debit and voucher products with installment limits', () => {
    const brands = new Set(tables.products.map((p) => p.BrandId));
    for (const b of BRANDS_OF_SCHEMES) expect(brands.has(b), `scheme brand ${b}`).toBe(true);
    const types = new Set(tables.products.map(paymentTypeOf));
    expect([...types].sort()).toEqual(['PhysicalCreditCard', 'PhysicalDebitCard', 'PhysicalVoucherCard']);
    expect(tables.products.some((p) => p.MaximumNumberOfInstallmentsWhenFinancingByStore >= 2)).toBe(true);
    expect(
      tables.products.some(
        (p) =>
          p.MaximumNumberOfInstallmentsWhenFinancingByCreditCardCompany >
          p.MaximumNumberOfInstallmentsWhenFinancingByStore,
      ),
    ).toBe(true);
  });

  it('have specific ranges inside generic ones, and 6- and 8-digit BINs', () => {
    const lengths = new Set(tables.bins.flatMap((b) => [b.InitialBin.length, b.FinalBin.length]));
    expect(lengths).toEqual(new Set([6, 8]));
    const elo = set.index.lookup('43893500');
    expect(elo?.type).toBe(0);
    expect(elo?.rows.map((r) => r.ProductId)).toEqual([40, 41]);
    expect(set.index.lookup('43893600')?.type).toBe(1); // the Visa generic range around it
    expect(set.index.lookup('47617395')?.rows.map((r) => r.ProductId)).toEqual([2]); // 8-digit inside 476173
  });

  it('carry at least four contact and four contactless AIDs as §4.1 records, zero floor limits, with tag lists', () => {
    const ctls = tables.aidRecords.filter((r) => r.fields.T1_CTLSMODE !== '0');
    expect(tables.aidRecords.length).toBeGreaterThanOrEqual(4);
    expect(ctls.length).toBeGreaterThanOrEqual(4);
    for (const r of tables.aidRecords) {
      expect(r.acquirer).toBe('03');
      expect(r.length).toBe(340);
      expect(r.fields.T1_FLRLIMIT).toBe('00000000');
      expect(r.fields.T1_CTLSFLRLIM).toBe('00000000');
    }
    for (const e of tables.emv) {
      expect(
        tables.aidRecords.some((r) => r.fields.T1_AID!.startsWith(e.Aid)),
        e.Aid,
      ).toBe(true);
      expect(e.TagsFirst.length).toBeGreaterThan(0);
      expect(e.TagsSecond.length).toBeGreaterThan(0);
      expect(e.NatEmvConctactRiskFloorLimit + e.IntEmvConctactRiskFloorLimit).toBe(0);
    }
  });

  it('carry CA keys whose check sums verify, and a revoked certificate', () => {
    expect(tables.keyRecords.filter((r) => r.kind === 'capk').length).toBeGreaterThanOrEqual(8);
    expect(tables.keyRecords.filter((r) => r.kind === 'revoked')).toHaveLength(1);
  });

  it('give every test card its product, issuer and brand, by stripe and by chip', () => {
    for (const c of TEST_CARDS) {
      const byStripe = candidateProducts(set, {
        entry: 'magstripe',
        digits: c.pan.slice(0, 8),
        serviceCode: c.serviceCode,
      });
      expect(byStripe.ok, c.name).toBe(true);
      if (!byStripe.ok) continue;
      const mine = byStripe.candidates.find((x) => x.product.ProductId === c.productId);
      expect(mine, c.name).toBeDefined();
      expect(mine!.issuer?.IssuerId).toBe(c.issuerId);
      expect(Number(mine!.product.BrandId)).toBe(c.brandId);
      const aid = tables.emv.find((e) => e.ProductIds.includes(c.productId))!.Aid;
      const byChip = candidateProducts(set, { entry: 'emv', digits: c.pan.slice(0, 8), aid });
      expect(byChip.ok && byChip.candidates.map((x) => x.product.ProductId)).toContain(c.productId);
    }
  });

  it('store in SQLite and read back whole', () => {
    const db = tempStore();
    const store = new InitializationStore(db, { now: () => new Date() });
    store.install(tables);
    expect(store.current()).toEqual(tables);
    db.close();
  });
});

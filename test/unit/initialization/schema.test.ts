import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError, type OmniposError } from '../../../src/core/errors/index.js';
import { binHas, parseInitialization } from '../../../src/initialization/index.js';
import { sandboxAnswer, seed } from '../../helpers/initialization-tables.js';

function refused(json: unknown): OmniposError {
  try {
    parseInitialization(json);
  } catch (e) {
    if (isOmniposError(e)) return e;
    throw e;
  }
  throw new Error('accepted a bad table');
}

type Row = Record<string, unknown>;
const rows = (t: Record<string, unknown>, name: string): Row[] => t[name] as Row[];

describe('initialization schema', () => {
  it('accepts the sandbox tables and keeps every member', () => {
    const t = parseInitialization(sandboxAnswer());
    expect(t.version).toBe('1763769600001');
    expect(t.bins.length).toBeGreaterThan(0);
    expect(t.parameters.Currency).toBe('986');
    const raw = rows(sandboxAnswer(), 'Bins')[0]!;
    expect(binHas(t.bins[0]!, 'RequiresPassword')).toBe(raw.RequiresPassword);
    expect(binHas(t.bins[0]!, 'AllowTypingCardNumber')).toBe(raw.AllowTypingCardNumber);
  });

  it('refuses a range whose end is below its start, naming the row: Bins[812].FinalBin', () => {
    const t = sandboxAnswer();
    const first = rows(t, 'Bins')[0]!;
    const bins = Array.from({ length: 900 }, (_, i) => ({
      ...first,
      InitialBin: String(40000000 + i * 10),
      FinalBin: String(40000000 + i * 10 + 9),
    }));
    bins[812] = { ...bins[812], InitialBin: '41000000', FinalBin: '40999999' };
    const e = refused({ ...t, Bins: bins });
    expect(e.code).toBe('INIT_TABLE_INVALID');
    expect(e.message).toBe('Bins[812].FinalBin: lower than InitialBin');
    expect(e.context.path).toBe('Bins[812].FinalBin');
  });

  it('compares bounds on 19 digits: 6-digit end 476173 is not below 8-digit start 47617300', () => {
    const t = sandboxAnswer();
    rows(t, 'Bins')[0] = { ...rows(t, 'Bins')[0], InitialBin: '47617300', FinalBin: '476173' };
    expect(() => parseInitialization(t)).not.toThrow();
    rows(t, 'Bins')[0] = { ...rows(t, 'Bins')[0], InitialBin: '47617300', FinalBin: '476172' };
    expect(refused(t).message).toBe('Bins[0].FinalBin: lower than InitialBin');
  });

  it('refuses a missing flag, a non-digit BIN, an unknown product or issuer, a repeated id, a bad AID', () => {
    const cases: [(t: Record<string, unknown>) => void, string][] = [
      [(t) => void delete rows(t, 'Bins')[1]!.RequiresPassword, 'Bins[1].RequiresPassword: missing'],
      [(t) => (rows(t, 'Bins')[0]!.InitialBin = '4761A3'), 'Bins[0].InitialBin: expected 1 to 19 digits'],
      [(t) => (rows(t, 'Bins')[0]!.ProductId = 999), 'Bins[0].ProductId: no product 999 in Products'],
      [(t) => (rows(t, 'Bins')[0]!.IssuerId = 999), 'Bins[0].IssuerId: no issuer 999 in Issuers'],
      [(t) => (rows(t, 'Bins')[0]!.Type = 2), 'Bins[0].Type:'],
      [(t) => (rows(t, 'Products')[1]!.ProductId = rows(t, 'Products')[0]!.ProductId), 'Products[1].ProductId: '],
      [(t) => (rows(t, 'Emv')[0]!.ProductIds = [1, 4242]), 'Emv[0].ProductIds[1]: no product 4242 in Products'],
      [(t) => (rows(t, 'Emv')[0]!.Aid = 'A00000000G1010'), 'Emv[0].Aid: expected hex bytes'],
      [(t) => (rows(t, 'Issuers')[0]!.LimitValueforReversal = '10,00'), 'Issuers[0].LimitValueforReversal:'],
      [(t) => (rows(t, 'Parameters')[0]!.Currency = 'BRL'), 'Parameters[0].Currency:'],
      [(t) => (t.InitializationVersion = 12345678901234), 'InitializationVersion:'],
      [(t) => (t.Acquirer = { ...(t.Acquirer as Row), HasKeyboard: 'yes' }), 'Acquirer.HasKeyboard:'],
    ];
    for (const [mutate, message] of cases) {
      const t = sandboxAnswer();
      mutate(t);
      const e = refused(t);
      expect(e.code, message).toBe('INIT_TABLE_INVALID');
      expect(e.message.startsWith(message), `${e.message} / ${message}`).toBe(true);
    }
  });

  it("accepts the manual's other spellings of three members", () => {
    const t = sandboxAnswer();
    const bin = rows(t, 'Bins')[0]!;
    bin.MaskCardNumberUsingFirst6AndLas4Digits = !bin.MaskCardNumberUsingFirst6AndLast4Digits;
    const expected = bin.MaskCardNumberUsingFirst6AndLas4Digits;
    delete bin.MaskCardNumberUsingFirst6AndLast4Digits;
    const issuer = rows(t, 'Issuers')[0]!;
    issuer.Option03BiAllowPrintingPartialCardNumberInReceipt07 = issuer.AllowPrintingPartialCardNumberInReceipt;
    delete issuer.AllowPrintingPartialCardNumberInReceipt;
    const product = rows(t, 'Products')[0]!;
    delete product.SaleGuaranteeType;
    product.PostdatedSaleGuaranteeType = 'DoNotAllowSalesWithGuarantee';
    const p = parseInitialization(t);
    expect(binHas(p.bins[0]!, 'MaskCardNumberUsingFirst6AndLast4Digits')).toBe(expected);
    expect(p.products[0]!.SaleGuaranteeType).toBe('00');
  });

  it('never throws anything but a typed error on mutated tables (fuzz)', () => {
    const base = sandboxAnswer();
    const paths: string[][] = [];
    const walk = (v: unknown, p: string[]): void => {
      if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, [...p, k]);
      else paths.push(p);
    };
    walk(base, []);
    const junk = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.object({ maxDepth: 1 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(paths.length - 1), junk), { minLength: 1, maxLength: 4 }), (edits) => {
        const t = structuredClone(base);
        for (const [i, value] of edits) {
          const p = paths[i]!;
          let o = t;
          for (const k of p.slice(0, -1)) o = o[k] as Record<string, unknown>;
          o[p[p.length - 1]!] = value;
        }
        try {
          parseInitialization(t);
        } catch (e) {
          expect(isOmniposError(e, 'INIT_TABLE_INVALID') || isOmniposError(e, 'INIT_RECORD_INVALID')).toBe(true);
          expect((e as OmniposError).message).toMatch(/^[A-Za-z]+(\[\d+\])?[.[:]/);
        }
      }),
      { numRuns: 1000, seed: seed('initialization schema fuzz') },
    );
  });
});

import { parseInitialization, TableSet } from '../../src/initialization/index.js';
import { sandboxAnswer } from './initialization-tables.js';

type Row = Record<string, unknown>;

/**
 * A small table set for the rule tests, built from the sandbox answer's rows as templates so every
 * member is present. `edit` changes it before validation.
 *  Products: 1 credit (Visa), 2 debit (Visa), 3 voucher (Alelo, brand 20).
 *  Issuers: 10 (pinpad required, voids: 30 days, 500.00, 100%), 11 (chip reader required).
 *  Bins: 400000-499999 generic → 1; 476173 → 1 and 2; 47617310-47617319 → 1 (issuer 11); 50670000-50679999 → 3.
 *  Emv: A0000000031010 → 1, A0000000032010 → 2.
 */
export function fixture(
  edit?: (t: { Bins: Row[]; Products: Row[]; Issuers: Row[]; Emv: Row[]; Parameters: Row[]; Acquirer: Row }) => void,
): TableSet {
  const a = sandboxAnswer() as Row & {
    Bins: Row[];
    Products: Row[];
    Issuers: Row[];
    Emv: Row[];
    Parameters: Row[];
    Acquirer: Row;
  };
  const bin = a.Bins[0]!;
  const product = a.Products[0]!;
  const issuer = a.Issuers[0]!;
  const emv = a.Emv[0]!;
  const allFalse = (r: Row) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'boolean' ? false : v]));
  const b = {
    ...allFalse(bin),
    AllowFallbackWhenChipReadingFails: true,
    AllowTypingCardNumber: true,
    AllowFinancingByStore: true,
    AllowFinancingByCreditCardCompany: true,
  };
  const i = {
    ...allFalse(issuer),
    AllowFallbackWhenChipReadingFails: true,
    AllowTypingCardNumber: true,
    AllowFinancingByStore: true,
    AllowFinancingByCreditCardCompany: true,
  };
  const p = {
    ...allFalse(product),
    AllowTransactionWithContactlessCard: true,
    AllowCancel: true,
    AllowUndo: true,
    AllowFinancingByStore: true,
    AllowFinancingByCreditCardCompany: true,
    MaximumNumberOfInstallmentsWhenFinancingByCreditCardCompany: 24,
    MaximumNumberOfInstallmentsWhenFinancingByStore: 12,
    MinimumNumberOfInstallmentsWhenFinancingByStore: 2,
  };
  const t = {
    Acquirer: {
      ...a.Acquirer,
      HasKeyboard: true,
      HasChipReader: true,
      HasMagneticTrackReader: true,
      LockAppFunctionsExceptInitialization: false,
    },
    Parameters: [
      { ...allFalse(a.Parameters[0]!), AllowFallbackWhenChipReadingFails: true, AllowTypingCardNumber: true },
    ],
    Products: [
      { ...p, ProductId: 1, ProductName: 'VISA CREDITO', ProductType: 0, BrandId: '1' },
      {
        ...p,
        ProductId: 2,
        ProductName: 'VISA DEBITO',
        ProductType: 1,
        BrandId: '1',
        AllowFinancingByStore: false,
        AllowFinancingByCreditCardCompany: false,
        MaximumNumberOfInstallmentsWhenFinancingByCreditCardCompany: 0,
        MaximumNumberOfInstallmentsWhenFinancingByStore: 0,
      },
      {
        ...p,
        ProductId: 3,
        ProductName: 'ALELO REFEICAO',
        ProductType: 1,
        BrandId: '20',
        AllowTransactionWithContactlessCard: false,
        AllowFinancingByStore: false,
        AllowFinancingByCreditCardCompany: false,
      },
    ],
    Issuers: [
      {
        ...i,
        IssuerId: 10,
        IssuerName: 'BANCO DEZ',
        RequiresPinpad: true,
        RequiresChipReader: false,
        LimitDayforReversal: 30,
        LimitValueforReversal: '50000',
        LimitPercentforReversal: 100,
      },
      {
        ...i,
        IssuerId: 11,
        IssuerName: 'BANCO ONZE',
        RequiresPinpad: false,
        RequiresChipReader: true,
        LimitDayforReversal: 0,
        LimitValueforReversal: '0',
        LimitPercentforReversal: 0,
      },
    ],
    Bins: [
      { ...b, InitialBin: '400000', FinalBin: '499999', Type: 1, ProductId: 1, IssuerId: 10 },
      { ...b, InitialBin: '476173', FinalBin: '476173', Type: 0, ProductId: 1, IssuerId: 10 },
      { ...b, InitialBin: '476173', FinalBin: '476173', Type: 0, ProductId: 2, IssuerId: 10 },
      { ...b, InitialBin: '47617310', FinalBin: '47617319', Type: 0, ProductId: 1, IssuerId: 11 },
      { ...b, InitialBin: '50670000', FinalBin: '50679999', Type: 0, ProductId: 3, IssuerId: 10 },
    ],
    Emv: [
      { ...emv, Aid: 'A0000000031010', Type: 0, ProductIds: [1], RequireBINToBeInCardRangeTable: false },
      { ...emv, Aid: 'A0000000032010', Type: 1, ProductIds: [2], RequireBINToBeInCardRangeTable: false },
    ],
  };
  edit?.(t);
  return new TableSet(parseInitialization({ ...a, ...t, AidParameters: '', PublicKeys: '' }));
}

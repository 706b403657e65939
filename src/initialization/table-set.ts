import { BRANDS } from '../../tables/initialization/brands.js';
import { BinIndex } from './bins/bin-index.js';
import type { BinRow, InitializationTables } from './model.js';
import type { EmvEntry, Issuer, Product } from './schema/tables.js';

/** The omni `Payment.Type` a product sells as. */
export type PaymentType = 'PhysicalCreditCard' | 'PhysicalDebitCard' | 'PhysicalVoucherCard';

/**
 * The tables in force, indexed for a sale: the BIN index, products, issuers and EMV entries by id.
 * Built once per installed version (the index build is the costly part).
 */
export class TableSet {
  readonly index: BinIndex<BinRow>;
  private readonly products: ReadonlyMap<number, Product>;
  private readonly issuers: ReadonlyMap<number, Issuer>;

  constructor(readonly tables: InitializationTables) {
    this.index = BinIndex.build(tables.bins);
    this.products = new Map(tables.products.map((p) => [p.ProductId, p]));
    this.issuers = new Map(tables.issuers.map((i) => [i.IssuerId, i]));
  }

  get version(): string {
    return this.tables.version;
  }

  product(id: number): Product | undefined {
    return this.products.get(id);
  }

  issuer(id: number): Issuer | undefined {
    return this.issuers.get(id);
  }

  /** `Emv` entries whose AID the card's AID starts with (EMV partial selection), longest first. */
  emvFor(cardAid: string): EmvEntry[] {
    const aid = cardAid.toUpperCase();
    return this.tables.emv.filter((e) => aid.startsWith(e.Aid)).sort((a, b) => b.Aid.length - a.Aid.length);
  }
}

/**
 * The sale type of a product: a voucher brand (tables/initialization/brands.json) sells as
 * `PhysicalVoucherCard`; otherwise `ProductType` 0 is credit, 1 debit.
 */
export function paymentTypeOf(product: Pick<Product, 'ProductType' | 'BrandId'>): PaymentType {
  if (BRANDS.get(product.BrandId)?.voucher) return 'PhysicalVoucherCard';
  return product.ProductType === 0 ? 'PhysicalCreditCard' : 'PhysicalDebitCard';
}

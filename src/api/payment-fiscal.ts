import { BRANDS } from '../../tables/initialization/brands.js';

/**
 * What a cash register writes in the card group of its fiscal document (NFC-e / NF-e `card`:
 * `tpIntegra`, `CNPJ`, `tBand`, `cAut`; SAT and most state systems ask the same plus the NSU).
 */
export interface FiscalCard {
  /** `tpIntegra`: 1, the payment is integrated with the cash register (TEF). */
  integration: 1;
  /** `CNPJ`: the acquirer's (payment institution's) CNPJ, 14 digits. */
  acquirerCnpj: string;
  /** `tBand`: the brand's code in the NFC-e table (`99` others), two digits. */
  cardBrand?: string;
  /** The brand's name as the initialization tables give it. */
  cardBrandName?: string;
  /** `cAut`: the host's authorization code. */
  authorizationCode?: string;
  /** The host's NSU. */
  nsu?: string;
  /** The fields the host's answer did not carry (a wallet QR or Pix payment): absent, never made up. */
  absent?: FiscalField[];
}

/** The card group's fields a host's answer may lack. */
export const FISCAL_FIELDS = ['cardBrand', 'authorizationCode', 'nsu'] as const;
export type FiscalField = (typeof FISCAL_FIELDS)[number];

/**
 * The acquirer's CNPJ. The seeds are anonymised copies of Cielo's documents (see
 * ../reference/acquirer-public-api.md); Cielo S.A. - Instituição de Pagamento is CNPJ
 * 01.027.058/0001-91 in the Receita Federal's public register.
 */
export const ACQUIRER_CNPJ = '01027058000191';

/**
 * `tBand` by brand name: the NFC-e table (Manual de Orientação do Contribuinte, `card/tBand`,
 * 01 Visa … 27 Ticket, 99 Outros). Pluxee is the name Sodexo's benefits took in 2024.
 */
export const FISCAL_BRAND_CODES: Readonly<Record<string, string>> = Object.freeze({
  Visa: '01',
  Mastercard: '02',
  'American Express': '03',
  Sorocred: '04',
  'Diners Club': '05',
  Elo: '06',
  Hipercard: '07',
  Aura: '08',
  Cabal: '09',
  Alelo: '10',
  'Banes Card': '11',
  CalCard: '12',
  Credz: '13',
  Discover: '14',
  GoodCard: '15',
  GreenCard: '16',
  Hiper: '17',
  JCB: '18',
  Mais: '19',
  MaxVan: '20',
  Policard: '21',
  RedeCompras: '22',
  Sodexo: '23',
  Pluxee: '23',
  ValeCard: '24',
  Verocheque: '25',
  VR: '26',
  Ticket: '27',
});

/** The fiscal code of the tables' `BrandId` (`99` for a brand the NFC-e table does not name). */
export function fiscalBrand(brandId: number | string | undefined): { code: string; name?: string } {
  const brand = brandId === undefined ? undefined : BRANDS.get(String(brandId));
  if (!brand) return { code: '99' };
  return { code: FISCAL_BRAND_CODES[brand.name] ?? '99', name: brand.name };
}

/** The fiscal card group of an approved card sale; undefined before the host authorized it. */
export function fiscalCard(sale: {
  authorizationCode?: string | undefined;
  nsu?: string | undefined;
  brandId?: number | undefined;
}): FiscalCard | undefined {
  if (!sale.authorizationCode) return undefined;
  const brand = fiscalBrand(sale.brandId);
  return {
    integration: 1,
    acquirerCnpj: ACQUIRER_CNPJ,
    cardBrand: brand.code,
    ...(brand.name ? { cardBrandName: brand.name } : {}),
    authorizationCode: sale.authorizationCode,
    ...(sale.nsu ? { nsu: sale.nsu } : {}),
  };
}

/**
 * The fiscal card group of a paid wallet QR or Pix payment, from what the host's answer carried
 * (`HostAuthorization`): the brand when the answer named the tables' `BrandId`, the code and NSU when
 * it gave them; each missing one is listed in `absent`. A Pix answer has no card and no authorization
 * code (ecom 1910-1923: `ProofOfSale` "NSU Pix", `AcquirerTransactionId`).
 */
export function fiscalPaid(paid: { authorizationCode?: string; nsu?: string; brandId?: number }): FiscalCard {
  const brand = paid.brandId === undefined ? undefined : fiscalBrand(paid.brandId);
  const absent = FISCAL_FIELDS.filter((f) =>
    f === 'cardBrand' ? !brand : f === 'authorizationCode' ? !paid.authorizationCode : !paid.nsu,
  );
  return {
    integration: 1,
    acquirerCnpj: ACQUIRER_CNPJ,
    ...(brand ? { cardBrand: brand.code, ...(brand.name ? { cardBrandName: brand.name } : {}) } : {}),
    ...(paid.authorizationCode ? { authorizationCode: paid.authorizationCode } : {}),
    ...(paid.nsu ? { nsu: paid.nsu } : {}),
    ...(absent.length > 0 ? { absent } : {}),
  };
}

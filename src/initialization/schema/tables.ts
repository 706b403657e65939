import { z } from 'zod';
import {
  ACQUIRER_FLAGS,
  BIN_FLAGS,
  EMV_FLAGS,
  FLAG_ALIASES,
  ISSUER_FLAGS,
  PARAMETER_FLAGS,
  PRODUCT_FLAGS,
} from './flags.js';

/**
 * zod schemas of the initialization answer, one per table, with the acquirer's member names
 * (002, "Terminal initialization response"). Members the acquirer may add later are ignored; every
 * member named here is required, so a table that lost a flag is refused rather than read as "no".
 */

function booleans<const K extends readonly string[]>(names: K): { [P in K[number]]: z.ZodBoolean } {
  return Object.fromEntries(names.map((n) => [n, z.boolean()])) as { [P in K[number]]: z.ZodBoolean };
}

/** Copies aliased spellings (see FLAG_ALIASES) to the canonical member before validation. */
function unalias(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [alias, name] of Object.entries(FLAG_ALIASES)) {
    if (alias in o && !(name in o)) {
      copy ??= { ...o };
      copy[name] = o[alias];
    }
  }
  return copy ?? o;
}

const int32 = z.number().int().min(-2147483648).max(2147483647);
const id = z.number().int().min(0).max(2147483647);
/** A BIN bound: 1 to 19 digits (6 and 8 are usual). */
const binDigits = z.string().regex(/^\d{1,19}$/, 'expected 1 to 19 digits');
const hex = (min: number, max: number) =>
  z
    .string()
    .regex(/^([0-9A-Fa-f]{2})*$/, 'expected hex bytes')
    .min(min * 2, `expected at least ${min} bytes`)
    .max(max * 2, `expected at most ${max} bytes`);

export const AcquirerSchema = z.preprocess(unalias, z.object({ ...booleans(ACQUIRER_FLAGS) }));

export const MerchantSchema = z.object({
  MerchantId: z.string(),
  NetworkName: z.string(),
  MerchantName: z.string(),
  MerchantAddress: z.string(),
  NationalId: z.string(),
});

export const BinSchema = z.preprocess(
  unalias,
  z.object({
    InitialBin: binDigits,
    FinalBin: binDigits,
    ProductId: id,
    IssuerId: id,
    /** 0 specific, 1 generic. */
    Type: z.union([z.literal(0), z.literal(1)]),
    ...booleans(BIN_FLAGS),
  }),
);

/** Guarantee type for postdated sales: 00 none, 05 guaranteed, 07 guaranteed and unguaranteed. */
const SALE_GUARANTEE_NAMES: Readonly<Record<string, '00' | '05' | '07'>> = { DoNotAllowSalesWithGuarantee: '00' };

function productAliases(value: unknown): unknown {
  const o = unalias(value);
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return o;
  const r = o as Record<string, unknown>;
  // The manual's example names this member PostdatedSaleGuaranteeType with an enum name.
  if (!('SaleGuaranteeType' in r) && typeof r.PostdatedSaleGuaranteeType === 'string') {
    const code = SALE_GUARANTEE_NAMES[r.PostdatedSaleGuaranteeType] ?? r.PostdatedSaleGuaranteeType;
    return { ...r, SaleGuaranteeType: code };
  }
  return r;
}

const installments = z.number().int().min(0).max(99);

export const ProductSchema = z.preprocess(
  productAliases,
  z.object({
    ProductId: id,
    ProductName: z.string().min(1),
    /** 0 credit, 1 debit. */
    ProductType: z.union([z.literal(0), z.literal(1)]),
    BrandId: z.string().min(1),
    ...booleans(PRODUCT_FLAGS),
    MaximumNumberOfInstallmentsWhenFinancingByCreditCardCompany: installments,
    MaximumNumberOfInstallmentsWhenFinancingByStore: installments,
    MaximumNumberOfinstallmentsForSaleAndCDCQuery: installments,
    MinimumNumberOfInstallmentsWhenFinancingByStore: installments,
    SaleGuaranteeType: z.enum(['00', '05', '07']),
    /** Days a sale may be postdated; 0 = not accepted. */
    PostdatedDayCountLimit: z.number().int().min(0).max(99),
    /** Days to the first installment; 0 = not accepted. */
    FirstInstallmentDayCountLimit: z.number().int().min(0).max(99),
  }),
);

/** An EMV tag list: concatenated BER-TLV tags (one or two bytes, or three for DFxxxx). */
const tagList = z.string().regex(/^([0-9A-Fa-f]{2})*$/, 'expected a list of hex tags');
const riskValue = z.number().int().min(0);

export const EmvSchema = z.preprocess(
  unalias,
  z.object({
    Aid: hex(5, 16),
    TagsFirst: tagList,
    TagsSecond: tagList,
    IdxRecord: int32,
    /** 0 credit, 1 debit. */
    Type: z.union([z.literal(0), z.literal(1)]),
    RCodeFirst: z.string(),
    RCodeSecond: z.string(),
    ...booleans(EMV_FLAGS),
    NatEmvConctactRiskFloorLimit: riskValue,
    NatEmvConctactRiskMinValue: riskValue,
    NatEmvConctactRiskMinPercent: riskValue,
    NatEmvConctactRiskMaxPercent: riskValue,
    IntEmvConctactRiskFloorLimit: riskValue,
    IntEmvConctactRiskMinValue: riskValue,
    IntEmvConctactRiskMinPercent: riskValue,
    IntEmvConctactRiskMaxPercent: riskValue,
    ProductIds: z.array(id).min(1),
  }),
);

export const ParameterSchema = z.preprocess(
  unalias,
  z.object({
    /** ISO 4217 numeric, "986" for the real. */
    Currency: z.string().regex(/^\d{3}$/, 'expected an ISO 4217 numeric code'),
    ...booleans(PARAMETER_FLAGS),
  }),
);

export const IssuerSchema = z.preprocess(
  unalias,
  z.object({
    IssuerId: id,
    IssuerName: z.string().min(1),
    ...booleans(ISSUER_FLAGS),
    /** Days after the sale a void is still allowed; 0 = no limit. */
    LimitDayforReversal: z.number().int().min(0),
    /** Largest void amount, in cents, as a digit string; "0" or "" = no limit. */
    LimitValueforReversal: z.string().regex(/^\d*$/, 'expected an amount in cents (digits)'),
    /** Largest void as a percentage of the sale; 0 = no limit. */
    LimitPercentforReversal: z.number().int().min(0),
    IssuerNameForDisplay: z.string(),
    IssuerNameForPrint: z.string(),
  }),
);

/** `InitializationVersion`: an integer of up to 13 digits (a number, or its digits as a string). */
export const VersionSchema = z.union([
  z.number().int().min(0).max(9999999999999),
  z.string().regex(/^\d{1,13}$/, 'expected up to 13 digits'),
]);

/** The whole answer of `GET /initialization/{SubordinatedMerchantId}/{TerminalId}`. */
export const InitializationSchema = z.object({
  MerchantId: z.string(),
  TerminalId: z.string(),
  Acquirer: AcquirerSchema,
  Merchant: MerchantSchema.optional(),
  Bins: z.array(BinSchema),
  Products: z.array(ProductSchema).min(1),
  Emv: z.array(EmvSchema),
  Parameters: z.array(ParameterSchema).min(1),
  Issuers: z.array(IssuerSchema).min(1),
  AidParameters: z.string(),
  PublicKeys: z.string(),
  InitializationVersion: VersionSchema,
});

export type Product = z.infer<typeof ProductSchema>;
export type EmvEntry = z.infer<typeof EmvSchema>;
export type Parameters = z.infer<typeof ParameterSchema>;
export type Issuer = z.infer<typeof IssuerSchema>;
export type AcquirerFlags = z.infer<typeof AcquirerSchema>;
export type MerchantInfo = z.infer<typeof MerchantSchema>;

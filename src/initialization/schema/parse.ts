import { binFlagMask, type BinRow, type InitializationTables } from '../model.js';
import { normaliseHigh, normaliseLow } from '../bins/normalise.js';
import { decodeRecords } from '../records/index.js';
import { OmniposError } from '../../core/index.js';
import { fromZod, tableError } from './issues.js';
import { InitializationSchema } from './tables.js';

function unique<T>(
  rows: readonly T[],
  key: (r: T) => number | string,
  table: string,
  member: string,
): Map<number | string, T> {
  const seen = new Map<number | string, T>();
  const at = new Map<number | string, number>();
  rows.forEach((r, i) => {
    const k = key(r);
    if (seen.has(k)) throw tableError(`${table}[${i}].${member}`, `${String(k)} repeats ${table}[${at.get(k)}]`);
    seen.set(k, r);
    at.set(k, i);
  });
  return seen;
}

/**
 * Validates the answer of `GET /initialization/...` and returns the tables in force-ready form.
 * Refuses, as INIT_TABLE_INVALID naming the path (`Bins[812].FinalBin: lower than InitialBin`):
 * a missing or mistyped member, a range whose end is below its start, a BIN row naming a product
 * or issuer that is not in the tables, an `Emv` row naming an unknown product, repeated ids; and,
 * as INIT_RECORD_INVALID, a malformed §4.1 record inside `AidParameters` or `PublicKeys`.
 */
export function parseInitialization(json: unknown): InitializationTables {
  const parsed = InitializationSchema.safeParse(json);
  if (!parsed.success) throw fromZod(parsed.error);
  const t = parsed.data;
  const products = unique(t.Products, (p) => p.ProductId, 'Products', 'ProductId');
  const issuers = unique(t.Issuers, (p) => p.IssuerId, 'Issuers', 'IssuerId');
  const bins = new Array<BinRow>(t.Bins.length);
  for (let i = 0; i < t.Bins.length; i++) {
    const b = t.Bins[i]!;
    if (normaliseHigh(b.FinalBin) < normaliseLow(b.InitialBin))
      throw tableError(`Bins[${i}].FinalBin`, 'lower than InitialBin', {
        InitialBin: b.InitialBin,
        FinalBin: b.FinalBin,
      });
    if (!products.has(b.ProductId)) throw tableError(`Bins[${i}].ProductId`, `no product ${b.ProductId} in Products`);
    if (!issuers.has(b.IssuerId)) throw tableError(`Bins[${i}].IssuerId`, `no issuer ${b.IssuerId} in Issuers`);
    bins[i] = {
      InitialBin: b.InitialBin,
      FinalBin: b.FinalBin,
      ProductId: b.ProductId,
      IssuerId: b.IssuerId,
      Type: b.Type,
      flags: binFlagMask(b),
    };
  }
  const emv = t.Emv.map((e, i) => {
    e.ProductIds.forEach((p, j) => {
      if (!products.has(p)) throw tableError(`Emv[${i}].ProductIds[${j}]`, `no product ${p} in Products`);
    });
    return {
      ...e,
      Aid: e.Aid.toUpperCase(),
      TagsFirst: e.TagsFirst.toUpperCase(),
      TagsSecond: e.TagsSecond.toUpperCase(),
    };
  });
  const aidRecords = decodeRecords(t.AidParameters, 'AidParameters');
  aidRecords.forEach((r, i) => {
    if (r.kind !== 'aid')
      throw new OmniposError(
        'INIT_RECORD_INVALID',
        `AidParameters[${i}].TAB_ID: expected 1 (AID record), got a ${r.kind} record`,
        { where: `AidParameters[${i}]`, field: 'TAB_ID' },
      );
  });
  const keyRecords = decodeRecords(t.PublicKeys, 'PublicKeys');
  keyRecords.forEach((r, i) => {
    if (r.kind === 'aid')
      throw new OmniposError(
        'INIT_RECORD_INVALID',
        `PublicKeys[${i}].TAB_ID: expected 2 (CA key) or 3 (revoked certificate), got an AID record`,
        { where: `PublicKeys[${i}]`, field: 'TAB_ID' },
      );
  });
  return {
    version: String(t.InitializationVersion),
    merchantId: t.MerchantId,
    terminalId: t.TerminalId,
    acquirer: t.Acquirer,
    merchant: t.Merchant,
    bins,
    products: t.Products,
    emv,
    parameters: t.Parameters[0]!,
    issuers: t.Issuers,
    aidParameters: t.AidParameters,
    publicKeys: t.PublicKeys,
    aidRecords,
    keyRecords,
  };
}

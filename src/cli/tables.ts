import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import {
  binFlagsObject,
  BIN_FLAGS,
  decideForCard,
  InitializationStore,
  parseInitialization,
  pinpadTableVersion,
  TableSet,
  type Entry,
  type InitializationTables,
  type TableRecord,
} from '../initialization/index.js';
import { INITIALIZATION_VERSION } from '../sandbox/index.js';
import { openTerminalDatabase } from '../store/index.js';
import { sandboxTables } from '../../tables/initialization/sandbox-tables.js';
import { printJson, type CliContext, type Command } from './context.js';

const SOURCE_OPTIONS = {
  json: { type: 'boolean' },
  file: { type: 'string' },
  sandbox: { type: 'boolean' },
  config: { type: 'string' },
} as const;

const SOURCE_USAGE = `Tables come from the terminal's database (the version in force), or with --file from an
initialization answer saved as JSON, or with --sandbox from the tables the sandbox serves.`;

/** The tables to show: --file, --sandbox, or the version in force in the terminal's database. */
function loadTables(
  values: { file?: string | undefined; sandbox?: boolean | undefined; config?: string | undefined },
  ctx: CliContext,
): InitializationTables {
  if (values.file) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(values.file, 'utf8'));
    } catch (e) {
      throw new OmniposError('INVALID_ARGUMENT', `--file ${values.file}: ${(e as Error).message}`, {
        file: values.file,
      });
    }
    return parseInitialization(json);
  }
  if (values.sandbox)
    return parseInitialization({
      MerchantId: 'sandbox',
      TerminalId: 'sandbox',
      ...sandboxTables(),
      InitializationVersion: INITIALIZATION_VERSION,
    });
  const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
  const db = openTerminalDatabase(config.values.stateDir);
  try {
    const tables = new InitializationStore(db, { now: () => new Date() }).current();
    if (!tables)
      throw new OmniposError(
        'INIT_NOT_INITIALIZED',
        `no initialization tables in ${config.values.stateDir}: run omnipos init (or use --sandbox or --file)`,
        {},
      );
    return tables;
  } finally {
    db.close();
  }
}

const TABLES = [
  'Acquirer',
  'Merchant',
  'Bins',
  'Products',
  'Emv',
  'Parameters',
  'Issuers',
  'AidParameters',
  'PublicKeys',
] as const;
type TableName = (typeof TABLES)[number];

function records(rs: readonly TableRecord[]): unknown[] {
  return rs.map((r) => ({ kind: r.kind, acquirer: r.acquirer, index: r.index, length: r.length, ...r.fields }));
}

function tableValue(t: InitializationTables, name: TableName): unknown {
  switch (name) {
    case 'Acquirer':
      return t.acquirer;
    case 'Merchant':
      return t.merchant ?? null;
    case 'Bins':
      return t.bins.map((b) => ({
        InitialBin: b.InitialBin,
        FinalBin: b.FinalBin,
        ProductId: b.ProductId,
        IssuerId: b.IssuerId,
        Type: b.Type,
        ...binFlagsObject(b),
      }));
    case 'Products':
      return t.products;
    case 'Emv':
      return t.emv;
    case 'Parameters':
      return [t.parameters];
    case 'Issuers':
      return t.issuers;
    case 'AidParameters':
      return records(t.aidRecords);
    case 'PublicKeys':
      return records(t.keyRecords);
  }
}

/** One line per row: scalar members, then the names of the Boolean members that are set. */
function line(row: unknown): string {
  if (typeof row !== 'object' || row === null) return String(row);
  const scalars: string[] = [];
  const set: string[] = [];
  for (const [k, v] of Object.entries(row)) {
    if (v === true) set.push(k);
    else if (v === false) continue;
    else scalars.push(`${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  }
  return [...scalars, ...(set.length ? [`[${set.join(' ')}]`] : [])].join(' ');
}

function summary(t: InitializationTables): string {
  return [
    `InitializationVersion ${t.version} (pinpad table version ${pinpadTableVersion(t.version)})`,
    `MerchantId ${t.merchantId}, TerminalId ${t.terminalId}${t.acquirer.LockAppFunctionsExceptInitialization ? ' — LOCKED until initialization' : ''}`,
    `Bins ${t.bins.length} rows, Products ${t.products.length}, Emv ${t.emv.length}, Issuers ${t.issuers.length}, Parameters 1`,
    `AidParameters ${t.aidRecords.length} AID records, PublicKeys ${t.keyRecords.filter((r) => r.kind === 'capk').length} CA keys and ${t.keyRecords.filter((r) => r.kind === 'revoked').length} revoked certificates`,
  ].join('\n');
}

/** `omnipos tables show [TABLE]`. */
export const tablesShow: Command = {
  path: ['tables', 'show'],
  summary: 'show the initialization tables in force (or one table)',
  usage: `omnipos tables show [TABLE] [--json] [--file ANSWER.json | --sandbox] [--config PATH]

Without TABLE: the version, its pinpad table version and the size of each table. TABLE is one of
${TABLES.join(', ')}; each row is printed on one line (set flags in brackets), AidParameters and
PublicKeys as their decoded ABECS §4.1 records. --json prints the table as JSON.
${SOURCE_USAGE}

Example:
  omnipos tables show Products --json`,
  run(args, ctx) {
    const { values, positionals } = parseArgs({ args, options: SOURCE_OPTIONS, allowPositionals: true, strict: true });
    const t = loadTables(values, ctx);
    const name = positionals[0];
    if (name === undefined) {
      if (values.json)
        printJson(ctx, {
          version: t.version,
          pinpadTableVersion: pinpadTableVersion(t.version),
          merchantId: t.merchantId,
          terminalId: t.terminalId,
          acquirer: t.acquirer,
          counts: Object.fromEntries(TABLES.map((n) => [n, [tableValue(t, n)].flat().length])),
        });
      else ctx.out(`${summary(t)}\n`);
      return Promise.resolve(0);
    }
    const table = TABLES.find((n) => n.toLowerCase() === name.toLowerCase());
    if (!table)
      throw new OmniposError('INVALID_ARGUMENT', `unknown table "${name}": expected one of ${TABLES.join(', ')}`, {
        table: name,
      });
    const value = tableValue(t, table);
    if (values.json) printJson(ctx, value);
    else ctx.out(`${(Array.isArray(value) ? value : [value]).map(line).join('\n')}\n`);
    return Promise.resolve(0);
  },
};

const ENTRIES: readonly Entry[] = ['magstripe', 'emv', 'contactlessMagstripe', 'contactlessEmv', 'typed'];

/** `omnipos tables bin DIGITS`. */
export const tablesBin: Command = {
  path: ['tables', 'bin'],
  summary: 'what the tables decide for a card: products, issuer, flags, installments, PIN, CVV',
  usage: `omnipos tables bin DIGITS [--json] [--aid AID] [--entry ENTRY] [--file ANSWER.json | --sandbox]

DIGITS are the first 1 to 19 digits of a card (the pinpad gives 8). Prints the winning range,
its products (and whether the customer must choose), issuer, the BIN row's flags, installments by
store and by card company, typing and fallback, and per entry mode the password, security code and
last-four rules. --aid restricts the products to a chip application (as a chip read does); --entry
(${ENTRIES.join(', ')}) sets the entry mode used to select products (default magstripe).
Exits 4 when the tables refuse the card.
${SOURCE_USAGE}

Example:
  omnipos tables bin 47617300 --sandbox --json`,
  run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { ...SOURCE_OPTIONS, aid: { type: 'string' }, entry: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const digits = positionals[0];
    if (digits === undefined || !/^\d{1,19}$/.test(digits))
      throw new OmniposError('INVALID_ARGUMENT', 'expected DIGITS: the first 1 to 19 digits of a card', {});
    const entry = (values.entry ?? (values.aid ? 'emv' : 'magstripe')) as Entry;
    if (!ENTRIES.includes(entry))
      throw new OmniposError('INVALID_ARGUMENT', `--entry: expected one of ${ENTRIES.join(', ')}`, { entry });
    const set = new TableSet(loadTables(values, ctx));
    const d = decideForCard(set, { entry, digits, ...(values.aid ? { aid: values.aid } : {}) });
    if (values.json) {
      printJson(ctx, { version: set.version, ...d });
      return Promise.resolve(d.ok ? 0 : 4);
    }
    if (!d.ok) {
      ctx.out(`${digits}: refused (${d.reason}): ${d.message}\n`);
      return Promise.resolve(4);
    }
    const out: string[] = [
      `${digits}: ${d.products.length} product(s)${d.mustChoose ? ', the customer chooses' : ''} (tables ${set.version})`,
    ];
    for (const p of d.products) {
      out.push(`- ${p.productId} ${p.productName} (${p.paymentType}, brand ${p.brandId})`);
      if (p.range)
        out.push(`  range ${p.range.InitialBin}-${p.range.FinalBin} ${p.range.Type === 0 ? 'specific' : 'generic'}`);
      if (p.issuer)
        out.push(
          `  issuer ${p.issuer.issuerId} ${p.issuer.name}${p.issuer.requiresPinpad ? ', requires a PIN pad' : ''}${p.issuer.requiresChipReader ? ', requires a chip reader' : ''}`,
        );
      const inst = (r: { min: number; max: number } | null) => (r ? `${r.min}-${r.max}` : 'no');
      out.push(
        `  installments: by store ${inst(p.installments.ByMerchant)}, by card company ${inst(p.installments.ByIssuer)}; typing ${p.typingAllowed ? 'allowed' : 'not allowed'}; fallback ${p.fallbackAllowed ? 'allowed' : 'not allowed'}`,
      );
      for (const [e, r] of Object.entries(p.byEntry))
        out.push(
          `  ${e}: password ${r.password}, security code ${r.securityCode ? r.securityCode.join('/') : 'no'}${r.lastFour ? ', last four digits' : ''}`,
        );
      if (p.binFlags) out.push(`  flags: ${BIN_FLAGS.filter((f) => p.binFlags![f]).join(' ')}`);
    }
    ctx.out(`${out.join('\n')}\n`);
    return Promise.resolve(0);
  },
};

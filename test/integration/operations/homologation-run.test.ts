import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAcquirer } from '../../../src/acquirer/index.js';
import { runCli } from '../../../src/cli/run.js';
import { loadConfig } from '../../../src/config/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { InitializationStore, initialize } from '../../../src/initialization/index.js';
import { parseScript } from '../../../src/operations/homologation/index.js';
import { buildSandbox, listenSandbox, type RunningSandbox, sandboxEnv } from '../../../src/sandbox/index.js';
import { openTerminalDatabase } from '../../../src/store/index.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { sensitiveIn } from './sensitive.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { omniValuesOf, omniSecretsOf } from '../../helpers/omni-config.js';

const dir = tempDirForFile('omnipos-homolog-');
let host: RunningSandbox;
let env: Record<string, string>;

const SCRIPT = {
  name: 'omnipos homologation smoke: card present',
  tests: [
    {
      id: 'CT01',
      title: 'credit, confirmed at once',
      steps: [{ sale: { amount: 1010, method: 'credit' }, expect: { status: 'confirmed' } }],
    },
    {
      id: 'CT02',
      title: 'credit declined by the issuer',
      steps: [{ sale: { amount: 1011, method: 'credit' }, expect: { status: 'declined' } }],
    },
    {
      id: 'CT03',
      title: 'credit approved, undone by the cash register',
      steps: [
        { sale: { amount: 1210, method: 'credit', confirmation: 'ecr' }, expect: { status: 'approved' } },
        { undo: {}, expect: { status: 'undone' } },
      ],
    },
    {
      id: 'CT04',
      title: 'credit approved, confirmed, then voided with the card present',
      steps: [
        { sale: { amount: 1310, method: 'credit', confirmation: 'ecr' }, expect: { status: 'approved' } },
        { confirm: {}, expect: { status: 'confirmed' } },
        { void: {}, expect: { status: 'approved' } },
      ],
    },
    {
      id: 'CT05',
      title: 'a wrong expectation fails its test',
      steps: [{ sale: { amount: 1410, method: 'credit' }, expect: { status: 'declined' } }],
    },
  ],
};

beforeAll(async () => {
  // The acquirer's homologation host, played by the sandbox on its own port.
  host = await listenSandbox(
    buildSandbox({ dbFile: path.join(dir, 'host', 'acquirer.db'), log: createLogger({ level: 'silent' }) }),
    { port: 0 },
  );
  // No close margin: with the default 30 min, a sale in the half hour before the host's midnight has its
  // decision due at once (src/engine/daily-close.ts), and CT03/CT04 expect 'approved' at any hour.
  env = {
    OMNIPOS_STATE_DIR: path.join(dir, 'state'),
    OMNIPOS_ENVIRONMENT: 'homologation',
    OMNIPOS_PAYMENTS__CLOSE_MARGIN_SECONDS: '0',
  };
  Object.assign(env, sandboxEnv(host));
  // A technician initializes the terminal before the script (omnipos init): the tables in force.
  const config = loadConfig({ env });
  const db = openTerminalDatabase(config.values.stateDir);
  const log = createLogger({ level: 'silent' });
  const a = omniValuesOf(config.values);
  const acquirer = createAcquirer({
    settings: {
      authUrl: a.authUrl,
      requestUrl: a.requestUrl,
      queryUrl: a.queryUrl,
      parametersUrl: a.parametersUrl,
      walletUrl: a.walletUrl,
      ecommerceUrl: a.ecommerceUrl,
      clientId: a.clientId,
      timeoutMs: a.timeoutMs,
    },
    clientSecret: omniSecretsOf(config).clientSecret,
    environment: 'homologation',
    clock: systemClock,
    log,
  });
  await initialize({
    source: {
      download: () =>
        acquirer.omni.initialization(config.values.terminal.subordinatedMerchantId, config.values.terminal.terminalId),
    },
    store: new InitializationStore(db, systemClock),
    log,
  });
  await acquirer.close();
  db.close();
}, 60_000);
afterAll(async () => {
  await host?.close();
  if (process.env.OMNIPOS_KEEP_EVIDENCE) cpSync(dir, process.env.OMNIPOS_KEEP_EVIDENCE, { recursive: true });
});

function files(root: string): string[] {
  return readdirSync(root).flatMap((n) =>
    statSync(path.join(root, n)).isDirectory() ? files(path.join(root, n)).map((f) => `${n}/${f}`) : [n],
  );
}

describe('omnipos homologation run', () => {
  it('runs a small script against the configured host (homologation environment) and writes an evidence bundle per test with no card data, token or key', async () => {
    expect(() => parseScript(JSON.stringify(SCRIPT))).not.toThrow();
    const scriptFile = path.join(dir, 'script.json');
    writeFileSync(scriptFile, JSON.stringify(SCRIPT));
    const out = path.join(dir, 'evidence');
    let said = '';
    const code = await runCli(['homologation', 'run', scriptFile, '--out', out], {
      out: (s) => (said += s),
      err: (s) => (said += s),
      env,
    });
    console.log(said);
    expect(code).toBe(1);
    expect(said).toMatch(/PASS CT01[\s\S]*PASS CT02[\s\S]*PASS CT03[\s\S]*PASS CT04[\s\S]*FAIL CT05/);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ script: SCRIPT.name, environment: 'homologation', passed: 4, failed: 1 });
    const written = files(out).sort();
    for (const id of ['CT01', 'CT03', 'CT04']) {
      for (const f of ['exchanges.json', 'emv.json', 'result.json', 'receipt-customer.txt', 'receipt-merchant.txt'])
        expect(written).toContain(`${id}/${f}`);
    }
    // The requests and answers of a test: the sale, and its confirmation, each with the homologation header.
    const ct01 = JSON.parse(readFileSync(path.join(out, 'CT01', 'exchanges.json'), 'utf8')) as {
      route?: string;
      request: { headers: Record<string, string>; body?: Record<string, unknown> };
      response?: { status: number };
    }[];
    const routes = ct01.map((e) => e.route);
    expect(routes).toContain('saleCreate');
    expect(routes).toContain('saleConfirm');
    for (const e of ct01) expect(e.request.headers.environment).toBe('Homologacao');
    const sale = ct01.find((e) => e.route === 'saleCreate')!;
    expect(sale.response?.status).toBe(201);
    const payment = sale.request.body!.Payment as
      { Amount: number; PhysicalCharacteristics?: unknown; Card?: Record<string, unknown> } | undefined;
    expect(payment?.Amount).toBe(1010);
    expect(JSON.stringify(sale.request.body)).toContain('[REDACTED]');
    expect(sale.request.headers.authorization).toBe('[REDACTED]');
    const ct04 = JSON.parse(readFileSync(path.join(out, 'CT04', 'exchanges.json'), 'utf8')) as { route?: string }[];
    expect(ct04.map((e) => e.route)).toEqual(
      expect.arrayContaining(['saleCreate', 'saleConfirm', 'voidCreate', 'voidConfirm']),
    );
    // EMV tags: what the chip gave back after the host's answer, and the request's objects masked by tag.
    const emv = JSON.parse(readFileSync(path.join(out, 'CT01', 'emv.json'), 'utf8'));
    expect(Object.keys(emv.afterChip ?? {})).toEqual(expect.arrayContaining(['9F26']));
    const receipt = readFileSync(path.join(out, 'CT01', 'receipt-customer.txt'), 'utf8');
    expect(receipt).toMatch(/\d{6}\*+\d{4}/);
    expect(receipt).toContain('AMBIENTE DE TESTE');
    // Nothing sensitive anywhere in the bundle: PAN, track, PIN block, keys, tokens.
    expect(scanForCardData(out)).toEqual([]);
    const apiToken = readFileSync(path.join(dir, 'state', 'api-token'), 'utf8').trim();
    const supervisorToken = readFileSync(path.join(dir, 'state', 'supervisor-token'), 'utf8').trim();
    for (const f of written)
      expect(sensitiveIn(readFileSync(path.join(out, f), 'utf8'), { apiToken, supervisorToken }), f).toEqual([]);
    const all = written.map((f) => readFileSync(path.join(out, f), 'utf8')).join('\n');
    expect(all).not.toMatch(/"(TrackTwoData|PinBlock|EncryptedPinBlock)"\s*:\s*"[0-9A-Fa-f]{16,}"/);
    console.log(
      `homologation evidence: ${written.length} files, ${all.length} bytes, ${ct01.length} exchanges in CT01`,
    );
  }, 180_000);

  it('refuses a malformed script naming the path at fault', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ name: 'x', tests: [{ id: 'CT 1', steps: [{ sale: { amount: 10, method: 'credit' } }] }] }),
    );
    let err = '';
    expect(await runCli(['homologation', 'run', bad], { out: () => undefined, err: (s) => (err += s), env })).toBe(2);
    expect(err).toContain('tests.0.id');
    expect(err).toContain('OPERATIONS_SCRIPT_INVALID');
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, describeConfig, loadConfig, type ConfigProblem } from '../../../src/config/index.js';
import { OmniposError } from '../../../src/core/errors/index.js';
import { productionConfig, writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniValuesOf, omniSecretsOf } from '../../helpers/omni-config.js';

const tempDir = useTempDirs();

function baseConfig(): Record<string, any> {
  return JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8'));
}

/** Writes `config` (and a secret file beside it) into a temp folder; returns the config's path. */
function writeConfig(config: Record<string, any>, secret?: string): string {
  return writeConfigWithSecret(tempDir(), config, secret);
}

function problemsOf(fn: () => unknown): ConfigProblem[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(OmniposError);
    return (e as OmniposError).context.problems as ConfigProblem[];
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('loads the shipped default: sandbox, virtual devices, paths resolved beside the file', () => {
    const config = loadConfig({ env: {} });
    expect(config.values.environment).toBe('sandbox');
    expect(config.values.pinpad.device.kind).toBe('virtual');
    expect(path.isAbsolute(config.values.stateDir)).toBe(true);
    expect(config.values.stateDir).toBe(path.resolve(path.dirname(DEFAULT_CONFIG_PATH), '../var'));
    expect(omniSecretsOf(config).clientSecret.reveal()).toBe('omnipos-sandbox-secret-not-for-production');
  });

  it('names the bad key of a bad URL', () => {
    const c = baseConfig();
    c.acquirer.omni.queryUrl = 'ftp://host/x';
    expect(problemsOf(() => loadConfig({ path: writeConfig(c), env: {} }))).toContainEqual({
      path: 'acquirer.omni.queryUrl',
      message: 'must be an https or http URL',
    });
  });

  it('names unknown keys, missing keys and wrong types, one problem each', () => {
    const c = baseConfig();
    c.acquirer.omni.quryUrl = 'http://x';
    delete c.terminal.ordinal;
    c.pinpad.device = { kind: 'serial' };
    c.acquirer.omni.ksi = 3033;
    const problems = problemsOf(() => loadConfig({ path: writeConfig(c), env: {} }));
    const paths = problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['acquirer.omni.quryUrl', 'terminal.ordinal', 'pinpad.device.path', 'acquirer.omni.ksi']),
    );
    expect(problems.find((p) => p.path === 'terminal.ordinal')?.message).toBe('is required');
    expect(problems.find((p) => p.path === 'acquirer.omni.quryUrl')?.message).toBe('unknown key');
  });

  it('reports a file that is not JSON and a missing file with their codes', () => {
    const dir = tempDir();
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{ "environment": ');
    expect(() => loadConfig({ path: bad, env: {} })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => loadConfig({ path: path.join(dir, 'nope.json'), env: {} })).toThrow(
      expect.objectContaining({ code: 'CONFIG_NOT_FOUND' }),
    );
  });

  it('takes OMNIPOS_CONFIG and single-key overrides from the environment, typed', () => {
    const file = writeConfig(baseConfig());
    const config = loadConfig({
      env: {
        OMNIPOS_CONFIG: file,
        OMNIPOS_STATE_DIR: '/var/lib/omnipos',
        OMNIPOS_ACQUIRER__QUERY_URL: 'https://query.example',
        OMNIPOS_TERMINAL__ORDINAL: '7',
        OMNIPOS_SANDBOX__EMBEDDED: 'false',
      },
    });
    expect(config.source).toBe(file);
    expect(config.values.stateDir).toBe('/var/lib/omnipos');
    expect(omniValuesOf(config.values).queryUrl).toBe('https://query.example');
    expect(config.values.terminal.ordinal).toBe(7);
    expect(config.values.sandbox.embedded).toBe(false);
    expect(config.overrides.map((o) => o.path)).toContain('stateDir');
  });

  it('a text key takes its digits as written: OMNIPOS_TERMINAL__TERMINAL_ID=42004301 is the text, not a number (found by the chaos run)', () => {
    const config = loadConfig({
      env: {
        OMNIPOS_CONFIG: writeConfig(baseConfig()),
        OMNIPOS_TERMINAL__TERMINAL_ID: '42004301',
        OMNIPOS_TERMINAL__ORDINAL: '7',
      },
    });
    expect(config.values.terminal.terminalId).toBe('42004301');
    expect(config.values.terminal.ordinal).toBe(7);
  });

  it('a key whose type depends on the device kind follows the kind: the tcp pinpad port is a number, the bibcomp port string is text (a port the CI run refused as text)', () => {
    const tcp = loadConfig({
      env: {
        OMNIPOS_CONFIG: writeConfig(baseConfig()),
        OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
        OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
        OMNIPOS_PINPAD__DEVICE__PORT: '4000',
      },
    });
    expect(tcp.values.pinpad.device).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 4000 });
    const virtual = loadConfig({
      env: { OMNIPOS_CONFIG: writeConfig(baseConfig()), OMNIPOS_PINPAD__DEVICE__PORT: '4001' },
    });
    expect(virtual.values.pinpad.device).toMatchObject({ port: 4001 });
    const bib = loadConfig({
      env: {
        OMNIPOS_CONFIG: writeConfig(baseConfig()),
        OMNIPOS_PINPAD__DEVICE__KIND: 'bibcomp',
        OMNIPOS_PINPAD__DEVICE__LIBRARY: '/opt/v/libppcomp.so',
        OMNIPOS_PINPAD__DEVICE__PORT: '1',
      },
    });
    expect(bib.values.pinpad.device).toMatchObject({ kind: 'bibcomp', port: '1' });
  });

  it('refuses an override of a key that does not exist, naming the variable', () => {
    expect(problemsOf(() => loadConfig({ env: { OMNIPOS_STAT_DIR: '/tmp/x' } }))).toContainEqual({
      path: 'OMNIPOS_STAT_DIR',
      message: 'no configuration key statDir',
    });
  });

  it('an override is validated like the file (a bad value names its key)', () => {
    expect(problemsOf(() => loadConfig({ env: { OMNIPOS_TERMINAL__ORDINAL: '1000' } })).map((p) => p.path)).toContain(
      'terminal.ordinal',
    );
  });

  it('names the key of a secret file that cannot be read', () => {
    const c = baseConfig();
    const file = writeConfig(c);
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.acquirer.omni.clientSecretFile = 'missing-secret';
    writeFileSync(file, JSON.stringify(raw));
    const problems = problemsOf(() => loadConfig({ path: file, env: {} }));
    expect(problems[0]?.path).toBe('acquirer.omni.clientSecretFile');
    expect(problems[0]?.message).toMatch(/cannot read .*missing-secret \(ENOENT\)/);
  });

  it('masks secrets when the configuration is described', () => {
    const config = loadConfig({ path: writeConfig(baseConfig(), 'hunter2-very-secret'), env: {} });
    const text = JSON.stringify(describeConfig(config));
    expect(text).not.toContain('hunter2-very-secret');
    expect(text).toContain('[secret from');
    expect(String(omniSecretsOf(config).clientSecret)).toBe('[secret]');
  });

  it('freezes what it returns', () => {
    const config = loadConfig({ env: {} });
    expect(() => {
      (config.values.terminal as { ordinal: number }).ordinal = 5;
    }).toThrow(TypeError);
  });
});

describe('production environment guard', () => {
  it('accepts a production configuration with real parts', () => {
    expect(loadConfig({ path: writeConfig(productionConfig(), 'live-secret'), env: {} }).values.environment).toBe(
      'production',
    );
  });

  it('refuses a virtual pinpad in production, naming it', () => {
    const c = productionConfig();
    c.pinpad.device = { kind: 'virtual' };
    let error: unknown;
    try {
      loadConfig({ path: writeConfig(c, 'live-secret'), env: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'ENVIRONMENT_REFUSED' });
    expect((error as OmniposError).context.problems).toEqual([
      { path: 'pinpad.device.kind', message: 'a virtual pinpad is not allowed in production' },
    ]);
    expect((error as Error).message).toContain('pinpad.device.kind');
  });

  it('refuses every test part at once: virtual printer, embedded sandbox, loopback addresses, sandbox credentials', () => {
    const c = productionConfig();
    c.printer = { kind: 'virtual' };
    c.sandbox.embedded = true;
    c.acquirer.omni.requestUrl = 'https://localhost:8080';
    c.acquirer.omni.queryUrl = 'https://127.0.0.2:8080';
    c.acquirer.omni.walletUrl = 'https://[::1]:8080';
    c.acquirer.omni.clientId = 'omnipos-sandbox-client';
    const paths = problemsOf(() =>
      loadConfig({ path: writeConfig(c, 'omnipos-sandbox-secret-not-for-production'), env: {} }),
    ).map((p) => p.path);
    expect(paths.sort()).toEqual(
      [
        'printer.kind',
        'sandbox.embedded',
        'acquirer.omni.requestUrl',
        'acquirer.omni.queryUrl',
        'acquirer.omni.walletUrl',
        'acquirer.omni.clientId',
        'acquirer.omni.clientSecretFile',
      ].sort(),
    );
  });

  it('refuses a production terminal switched to test parts through the environment', () => {
    const file = writeConfig(productionConfig(), 'live-secret');
    expect(() => loadConfig({ path: file, env: { OMNIPOS_PINPAD__DEVICE: '{"kind":"virtual"}' } })).toThrow(
      expect.objectContaining({ code: 'ENVIRONMENT_REFUSED' }),
    );
  });
});

describe('e-commerce credentials', () => {
  it('the default names the sandbox merchant and its key file; production refuses the sandbox merchant id', () => {
    const config = loadConfig({ env: {} });
    expect(omniValuesOf(config.values).merchantId).toBe('00000000-0000-4000-8000-000000000001');
    expect(omniSecretsOf(config).merchantKey?.reveal()).toBe('OMNIPOSSANDBOXMERCHANTKEYNOTFORPRODUCTION');
    const c = productionConfig();
    const file = writeConfig(c, 'live-secret');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.acquirer.omni.merchantId = '00000000-0000-4000-8000-000000000001';
    writeFileSync(file, JSON.stringify(raw));
    expect(problemsOf(() => loadConfig({ path: file, env: {} }))).toEqual([
      { path: 'acquirer.omni.merchantId', message: 'the sandbox merchant id is not allowed in production' },
    ]);
  });
});

describe('outside the sandbox (issue 17): what the real host needs, refused at start by key', () => {
  it('homologation and production refuse a configuration without registrationUrl, ecommerceQueryUrl, orderIdTerminal or softDescriptor (the old code fell back or used constants)', () => {
    for (const environment of ['homologation', 'production']) {
      const c = productionConfig();
      c.environment = environment;
      delete c.acquirer.omni.registrationUrl;
      delete c.acquirer.omni.ecommerceQueryUrl;
      delete c.terminal.orderIdTerminal;
      delete c.terminal.softDescriptor;
      let error: unknown;
      try {
        loadConfig({ path: writeConfig(c, 'live-secret'), env: {} });
      } catch (e) {
        error = e;
      }
      expect(error, environment).toMatchObject({ code: 'CONFIG_INVALID' });
      expect(((error as OmniposError).context.problems as ConfigProblem[]).map((p) => p.path).sort()).toEqual(
        [
          'acquirer.omni.ecommerceQueryUrl',
          'acquirer.omni.registrationUrl',
          'terminal.orderIdTerminal',
          'terminal.softDescriptor',
        ].sort(),
      );
    }
  });

  it('every acquirer address must be https outside the sandbox, each refused by its key (a loopback one stays allowed in homologation)', () => {
    const c = productionConfig();
    c.acquirer.omni.authUrl = 'http://auth.acquirer.example';
    c.acquirer.omni.ecommerceQueryUrl = 'http://apiquery.acquirer.example';
    c.acquirer.omni.registrationUrl = 'http://cadastro.acquirer.example';
    const problems = problemsOf(() => loadConfig({ path: writeConfig(c, 'live-secret'), env: {} }));
    expect(problems.map((p) => p.path).sort()).toEqual([
      'acquirer.omni.authUrl',
      'acquirer.omni.ecommerceQueryUrl',
      'acquirer.omni.registrationUrl',
    ]);
    expect(problems[0]!.message).toMatch(/https/);
    const h = productionConfig();
    h.environment = 'homologation';
    h.acquirer.omni.requestUrl = 'http://127.0.0.1:18443';
    expect(omniValuesOf(loadConfig({ path: writeConfig(h, 'live-secret'), env: {} }).values).requestUrl).toBe(
      'http://127.0.0.1:18443',
    );
    h.acquirer.omni.requestUrl = 'http://api.acquirer.example';
    expect(problemsOf(() => loadConfig({ path: writeConfig(h, 'live-secret'), env: {} })).map((p) => p.path)).toEqual([
      'acquirer.omni.requestUrl',
    ]);
  });

  it('a 14-character or accented softDescriptor is refused by the schema', () => {
    const c = productionConfig();
    c.terminal.softDescriptor = 'PADARIA DO SOL';
    expect(problemsOf(() => loadConfig({ path: writeConfig(c, 'live-secret'), env: {} })).map((p) => p.path)).toEqual([
      'terminal.softDescriptor',
    ]);
    c.terminal.softDescriptor = 'PADARIA SÃO';
    expect(problemsOf(() => loadConfig({ path: writeConfig(c, 'live-secret'), env: {} })).map((p) => p.path)).toEqual([
      'terminal.softDescriptor',
    ]);
  });

  it('the sandbox keeps its defaults; the wallet QR provider defaults to the e-commerce QR sale outside the sandbox', () => {
    const sandbox = loadConfig({ env: {} }).values;
    expect(sandbox.qr.provider).toBe('terminal');
    expect(sandbox.terminal.softDescriptor).toBe('OMNIPOS');
    expect(sandbox.terminal.orderIdTerminal).toBe(sandbox.terminal.ordinal);
    expect(omniValuesOf(sandbox).ecommerceQueryUrl).toBeDefined();
    expect(loadConfig({ path: writeConfig(productionConfig(), 'live-secret'), env: {} }).values.qr.provider).toBe(
      'ecommerce',
    );
  });

  it('a terminal-built wallet QR code is refused outside the sandbox (the acquirer pays only codes it registered, QR v4 343-345)', () => {
    const explicit = productionConfig();
    explicit.qr = { provider: 'terminal' };
    expect(problemsOf(() => loadConfig({ path: writeConfig(explicit, 'live-secret'), env: {} }))).toEqual([
      expect.objectContaining({
        path: 'qr.provider',
        message: expect.stringMatching(/"terminal" is refused in production/),
      }),
    ]);
    const homologation = productionConfig();
    homologation.environment = 'homologation';
    homologation.qr = { provider: 'terminal' };
    expect(
      problemsOf(() => loadConfig({ path: writeConfig(homologation, 'live-secret'), env: {} })).map((p) => p.path),
    ).toEqual(['qr.provider']);
  });

  it("an OMNIPOS_* variable naming one of Object's own properties is an unknown key, not a crash", () => {
    // The schema walk read the zod shape's prototype: OMNIPOS_CONSTRUCTOR made every command fail with
    // "TypeError: Cannot read properties of undefined (reading 'def')" instead of naming the variable.
    const file = writeConfig(baseConfig());
    for (const [variable, key] of [
      ['OMNIPOS_CONSTRUCTOR', 'constructor'],
      ['OMNIPOS_CONSTRUCTOR__NAME', 'constructor.name'],
      ['OMNIPOS_TERMINAL__TO_STRING', 'terminal.toString'],
      ['OMNIPOS_PINPAD__DEVICE__HAS_OWN_PROPERTY', 'pinpad.device.hasOwnProperty'],
    ] as const) {
      expect(problemsOf(() => loadConfig({ path: file, env: { [variable]: '1' } }))).toEqual([
        { path: variable, message: `no configuration key ${key}` },
      ]);
    }
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, describeConfig, loadConfig, type ConfigProblem } from '../../../src/config/index.js';
import { OmniposError } from '../../../src/core/errors/index.js';
import { writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/** `cardNotPresent`: a union by kind, each kind with its own keys only (docs/card-not-present.md). */
const tempDir = useTempDirs();

function write(cardNotPresent: unknown): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, unknown>;
  if (cardNotPresent !== undefined) config.cardNotPresent = cardNotPresent;
  return writeConfigWithSecret(tempDir(), config);
}

function problemsOf(cardNotPresent: unknown): ConfigProblem[] {
  try {
    loadConfig({ path: write(cardNotPresent), env: {} });
  } catch (e) {
    expect(e).toBeInstanceOf(OmniposError);
    return (e as OmniposError).context.problems as ConfigProblem[];
  }
  return [];
}

describe('cardNotPresent', () => {
  it('is absent by default, and takes the ecommerce kind with no keys of its own', () => {
    expect(loadConfig({ path: write(undefined), env: {} }).values.cardNotPresent).toBeUndefined();
    const ecommerce = loadConfig({ path: write({ kind: 'ecommerce' }), env: {} });
    expect(ecommerce.values.cardNotPresent).toEqual({ kind: 'ecommerce' });
    // No secret of its own: its sales sign with the acquirer's e-commerce MerchantKey.
    expect(ecommerce.secrets.cardNotPresent).toBeUndefined();
  });

  it("refuses another kind's key on the ecommerce kind, and a kind this build does not have", () => {
    expect(problemsOf({ kind: 'ecommerce', numero: '1006993069' })).toEqual([
      { path: 'cardNotPresent.numero', message: 'unknown key' },
    ]);
    expect(problemsOf({ kind: 'webservice2' })).toEqual([
      { path: 'cardNotPresent.kind', message: "Invalid discriminator value. Expected 'ecommerce' | 'webservice15'" },
    ]);
    expect(problemsOf({}).map((p) => p.path)).toEqual(['cardNotPresent.kind']);
  });
});

describe('cardNotPresent of kind webservice15', () => {
  const keyFile = (): string => {
    const dir = tempDir();
    const file = path.join(dir, 'ws15.key');
    writeFileSync(file, 'a-store-access-key\n', { mode: 0o600 });
    return file;
  };
  const ws15 = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
    kind: 'webservice15',
    url: 'https://qasecommerce.cielo.com.br/servicos/ecommwsec.do',
    affiliation: '1006993069',
    keyFile: keyFile(),
    ...over,
  });

  it('has keys of its own: the endpoint, the affiliation and the key file, read as a secret', () => {
    const config = loadConfig({ path: write(ws15()), env: {} });
    expect(config.values.cardNotPresent).toMatchObject({
      kind: 'webservice15',
      affiliation: '1006993069',
      timeoutMs: 30_000,
    });
    const secrets = config.secrets.cardNotPresent;
    expect(secrets?.kind).toBe('webservice15');
    expect(secrets?.kind === 'webservice15' && secrets.webservice15.key.reveal()).toBe('a-store-access-key');
  });

  it('is masked, under its kind, when the configuration is described (config check)', () => {
    const file = keyFile();
    const text = JSON.stringify(describeConfig(loadConfig({ path: write(ws15({ keyFile: file })), env: {} })));
    expect(text).not.toContain('a-store-access-key');
    expect(text).toContain(`"cardNotPresent":{"kind":"webservice15","webservice15":{"key":"[secret from ${file}]"}}`);
  });

  it("refuses the e-commerce API's keys on it, a missing key and an affiliation that is not 1 to 20 digits", () => {
    expect(problemsOf(ws15({ merchantId: 'x' }))).toEqual([
      { path: 'cardNotPresent.merchantId', message: 'unknown key' },
    ]);
    expect(problemsOf(ws15({ keyFile: undefined })).map((p) => p.path)).toEqual(['cardNotPresent.keyFile']);
    expect(problemsOf(ws15({ affiliation: '10069930691006993069X' })).map((p) => p.path)).toEqual([
      'cardNotPresent.affiliation',
    ]);
    expect(problemsOf(ws15({ url: 'ftp://x' })).map((p) => p.path)).toEqual(['cardNotPresent.url']);
  });

  it('refuses a key file that cannot be read, by its key', () => {
    expect(problemsOf(ws15({ keyFile: '/nonexistent/ws15.key' })).map((p) => p.path)).toEqual([
      'cardNotPresent.keyFile',
    ]);
  });
});

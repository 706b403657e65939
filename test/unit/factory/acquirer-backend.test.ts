import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { acquirerBackend, omniClientsOf, type BackendWiring } from '../../../src/factory/index.js';
import { Journal, openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniSecretsOf } from '../../helpers/omni-config.js';

const tempDir = useTempDirs();

function wiring(): BackendWiring {
  const db = openTerminalDatabase(tempDir());
  return {
    clock: systemClock,
    log: createLogger({ level: 'silent' }),
    terminal: {
      terminalId: '12345678',
      subordinatedMerchantId: '1234567890',
      pinpadSerial: '',
      physicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
      softDescriptor: 'LOJA',
    },
    onTablesVersion: () => undefined,
    db,
    journal: new Journal(db),
  };
}

const config = (extra: Record<string, string> = {}) =>
  loadConfig({ env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: tempDir(), ...extra } });

describe("the factory's omni entry builds its own clients from the configuration", () => {
  it('the backend speaks the engine’s ports; its omni clients are reached only through omniClientsOf', async () => {
    const open = acquirerBackend(config(), wiring());
    expect(open.backend.kind).toBe('omni');
    expect(Object.keys(open.backend).sort()).toEqual(
      ['delivery', 'initialization', 'kind', 'pix', 'probe', 'qrCodes', 'sales', 'voids', 'walletCancellations'].sort(),
    );
    const clients = omniClientsOf(open.backend);
    expect(clients.omni).toBeDefined();
    // The default (sandbox) configuration has the sandbox's e-commerce credentials: its client, and Pix.
    expect(clients.ecommerce).toBeDefined();
    expect(open.backend.pix).toBeDefined();
    await open.close();
  });

  it('a configuration the entry refuses (qr.provider ecommerce without credentials) is CONFIG_INVALID', () => {
    const c = config({ OMNIPOS_QR__PROVIDER: 'ecommerce' });
    const noEcommerce: Config = {
      ...c,
      secrets: { acquirer: { kind: 'omni', omni: { clientSecret: omniSecretsOf(c).clientSecret } } },
    };
    expect(() => acquirerBackend(noEcommerce, wiring())).toThrow(
      /qr\.provider: ecommerce needs the e-commerce credentials/,
    );
  });

  it('omniClientsOf refuses a backend the omni entry did not build', () => {
    const open = acquirerBackend(config(), wiring());
    expect(() => omniClientsOf({ ...open.backend, kind: 'other' })).toThrow(/not built by the omni entry/);
    return open.close();
  });
});

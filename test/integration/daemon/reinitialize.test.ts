import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { InitializationStore, parseInitialization } from '../../../src/initialization/index.js';
import { INITIALIZATION_VERSION } from '../../../src/sandbox/index.js';
import { openTerminalDatabase } from '../../../src/store/index.js';
import { sandboxTables } from '../../../tables/initialization/sandbox-tables.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { startTestDaemon } from '../../helpers/daemon.js';

describe('re-initialization', () => {
  it("a sale's answer naming a newer InitializationVersion puts the host's tables in force", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'omnipos-reinit-'));
    try {
      // The terminal holds an older version of the tables.
      const db = openTerminalDatabase(stateDir);
      const m = SANDBOX_MERCHANT.merchant;
      new InitializationStore(db, systemClock).install(
        parseInitialization({
          ...sandboxTables(),
          MerchantId: m.merchantNumber,
          TerminalId: SANDBOX_MERCHANT.terminal.terminalId,
          Merchant: {
            MerchantId: m.merchantNumber,
            NetworkName: 'SIMULADO',
            MerchantName: m.name,
            MerchantAddress: m.address,
            NationalId: m.nationalId,
          },
          InitializationVersion: 1763769500000,
        }),
      );
      db.close();

      const { daemon, stop } = await startTestDaemon({ stateDir, deps: { api: false } });
      try {
        const store = new InitializationStore(daemon.db, systemClock);
        expect(store.currentVersion()).toBe('1763769500000');
        const { done } = await daemon.engine.start({
          amount: 1010,
          method: 'credit',
          installments: 1,
          interest: 'ByMerchant',
          confirmation: 'auto',
        });
        await done;
        for (let i = 0; i < 200 && store.currentVersion() !== String(INITIALIZATION_VERSION); i++)
          await new Promise((r) => setTimeout(r, 25));
        expect(store.currentVersion()).toBe(String(INITIALIZATION_VERSION));
      } finally {
        await stop();
      }
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('no sale while the acquirer locks every function but initialization: refused before a journal row', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'omnipos-lock-'));
    try {
      const db = openTerminalDatabase(stateDir);
      const m = SANDBOX_MERCHANT.merchant;
      new InitializationStore(db, systemClock).install(
        parseInitialization({
          ...sandboxTables(),
          Acquirer: { ...sandboxTables().Acquirer, LockAppFunctionsExceptInitialization: true },
          MerchantId: m.merchantNumber,
          TerminalId: SANDBOX_MERCHANT.terminal.terminalId,
          Merchant: {
            MerchantId: m.merchantNumber,
            NetworkName: 'SIMULADO',
            MerchantName: m.name,
            MerchantAddress: m.address,
            NationalId: m.nationalId,
          },
          InitializationVersion: 1763769500000,
        }),
      );
      db.close();
      const { daemon, stop } = await startTestDaemon({ stateDir, deps: { api: false } });
      try {
        const sale = {
          amount: 1010,
          method: 'credit',
          installments: 1,
          interest: 'ByMerchant',
          confirmation: 'auto',
        } as const;
        await expect(daemon.engine.start(sale)).rejects.toMatchObject({ code: 'INIT_NOT_INITIALIZED' });
        await expect(daemon.qrEngine.start({ ...sale })).rejects.toMatchObject({ code: 'INIT_NOT_INITIALIZED' });
        expect(daemon.journal.list()).toEqual([]);
      } finally {
        await stop();
      }
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

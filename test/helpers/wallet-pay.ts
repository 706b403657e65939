import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/run.js';
import type { Logger } from '../../src/core/log/index.js';
import { startTestDaemon, type TestDaemon } from './daemon.js';
import { walletPayArgs } from './cli-process.js';
import { TEST_CARDS, type TestCard } from '../../tables/test-cards.js';

/**
 * The customer's wallet, played by `omnipos wallet pay` (in this process) against the sandbox's wallet API
 * at `walletUrl`: pays `qr` with `card`.
 */
export async function walletPays(
  walletUrl: string,
  qr: string,
  card: TestCard = TEST_CARDS[0]!,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stateDir = mkdtempSync(path.join(tmpdir(), 'omnipos-wallet-'));
  try {
    const code = await runCli(walletPayArgs(qr, card), {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_ACQUIRER__WALLET_URL: walletUrl },
    });
    return { code, out, err };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** A daemon on a fresh state directory (embedded sandbox, virtual devices), its API token and supervisor token. */
export async function supervisedDaemon(
  log: Logger,
): Promise<TestDaemon & { supervisor: string; env: Record<string, string> }> {
  const t = await startTestDaemon({ prefix: 'omnipos-supervised-', log });
  const env: Record<string, string> = {
    OMNIPOS_STATE_DIR: t.stateDir,
    OMNIPOS_API__PORT: new URL(t.apiUrl).port,
  };
  return Object.assign(t, { supervisor: readFileSync(path.join(t.stateDir, 'supervisor-token'), 'utf8').trim(), env });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSupervisorPassword } from '../../src/operations/index.js';
import { startTestDaemon, type TestDaemon } from './daemon.js';
import { TefPdv } from './tef-pdv.js';

/** The supervisor's password the TEF Dial daemon is given (the PDV sends it in `900-000`). */
export const TEF_SUPERVISOR = 'gerente2026';

export interface TefDaemon {
  t: TestDaemon;
  /** The TEF Dial folder (`REQ/`, `RESP/` below it). */
  base: string;
  /** The independent PDV on the daemon's folders. */
  pdv: TefPdv;
  /** Stops the daemon and removes both folders. */
  stop(): Promise<void>;
}

/**
 * A real daemon (embedded sandbox host, virtual pinpad) with TEF Dial on a temporary folder and the
 * supervisor's password `TEF_SUPERVISOR`, its pinpad's secure session open, and a PDV on its folders.
 */
export async function startTefDaemon(prefix: string): Promise<TefDaemon> {
  const base = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const stateDir = mkdtempSync(path.join(tmpdir(), `${prefix}-daemon-`));
  writeSupervisorPassword(path.join(stateDir, 'supervisor-password'), TEF_SUPERVISOR);
  const t = await startTestDaemon({
    stateDir,
    env: { OMNIPOS_TEF_DIAL__ENABLED: 'true', OMNIPOS_TEF_DIAL__DIR: base },
  });
  await t.pinpadOpened;
  return {
    t,
    base,
    pdv: new TefPdv(path.join(base, 'REQ'), path.join(base, 'RESP')),
    stop: async () => {
      await t.stop();
      rmSync(base, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

import path from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/index.js';
import type { SupervisorGate, VoidEngine } from '../engine/index.js';
import type { DayBook } from '../operations/index.js';
import { TefDialInterface, type TefDialDeps } from '../tefdial/index.js';
import type { Held } from './held.js';

/** The TEF Dial folders of a configuration: `tefDial.dir` (default `<stateDir>/TEF_DIAL`) with `REQ` and `RESP`. */
export function tefDialFolders(config: Config): { requestDir: string; responseDir: string } {
  const t = config.values.tefDial;
  const base = t.dir ?? path.join(config.values.stateDir, 'TEF_DIAL');
  return { requestDir: t.requestDir ?? path.join(base, 'REQ'), responseDir: t.responseDir ?? path.join(base, 'RESP') };
}

/**
 * Starts the TEF Dial interface when `tefDial.enabled` (off by default), on the engines the API
 * drives; registered in `held` to stop before them.
 */
export async function startTefDial(
  held: Held,
  config: Config,
  log: Logger,
  deps: Pick<TefDialDeps, 'engine' | 'journal' | 'pinpadOpen' | 'busy'>,
  voids: { engine: VoidEngine; gate: SupervisorGate },
  day: DayBook,
): Promise<TefDialInterface | undefined> {
  if (!config.values.tefDial.enabled) return undefined;
  const tef = new TefDialInterface(
    { ...tefDialFolders(config), stateDir: config.values.stateDir },
    {
      ...deps,
      // CNC voids, and ADM's close asks the supervisor's credential, as on the API.
      voids: voids.engine,
      supervisor: voids.gate,
      day,
      log: log.child({ component: 'tefdial' }),
      environment: config.values.environment,
      // The PDV prints the receipt lines (029-xxx) on its own printer: 32 columns fit every one.
      columns: 32,
    },
  );
  await held.step('the TEF Dial interface', () => tef.start());
  held.add('the TEF Dial interface', () => tef.stop());
  return tef;
}

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OmniposError } from '../core/index.js';
import type { PinpadLoadPlan } from '../initialization/index.js';
import { cardSim, type VirtualPinpad } from '../sim/index.js';

/** What the virtual pinpad's table memory keeps between runs: the last load that reached TLE. */
interface Memory {
  acquirerIndex: string;
  tableVersion: string;
  tlr: string[];
}

/** Where `omnipos init` keeps the embedded virtual pinpad's table memory. */
export function virtualMemoryFile(stateDir: string): string {
  return path.join(stateDir, 'virtual-pinpad', 'tables.json');
}

/**
 * The embedded virtual pinpad lives only while a command runs; a real pinpad keeps its tables in
 * flash. This gives it that memory: the last committed load is written after it reached TLE and
 * played back into the pinpad's tables (TLI, TLR…, TLE on its own table store) before the terminal
 * connects. A file that does not decode is ignored: the pinpad then starts with its factory tables.
 */
export function restoreVirtualTables(pinpad: VirtualPinpad, stateDir: string): string | undefined {
  const file = virtualMemoryFile(stateDir);
  if (!existsSync(file)) return undefined;
  let m: Memory;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Memory;
    if (typeof m.acquirerIndex !== 'string' || typeof m.tableVersion !== 'string' || !Array.isArray(m.tlr))
      return undefined;
  } catch {
    return undefined;
  }
  const tables = cardSim(pinpad.engine.state).tables;
  tables.begin(m.acquirerIndex, m.tableVersion);
  for (const block of m.tlr) tables.add(block);
  tables.commit();
  return m.tableVersion;
}

/** Records a load the virtual pinpad committed (written beside, then renamed over the old one). */
export function saveVirtualTables(stateDir: string, plan: PinpadLoadPlan): void {
  const file = virtualMemoryFile(stateDir);
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const body: Memory = { acquirerIndex: plan.acquirerIndex, tableVersion: plan.tableVersion, tlr: [...plan.tlr] };
    writeFileSync(`${file}.tmp`, JSON.stringify(body), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch (e) {
    throw new OmniposError(
      'STORE_OPEN_FAILED',
      `${file}: the virtual pinpad's table memory could not be written`,
      { file },
      { cause: e },
    );
  }
}

import { card, type GixResult } from '../../drivers/pinpad/index.js';
import type { PinpadLoadPlan, PinpadTables } from '../initialization/index.js';
import type { CardPinpad } from './pinpad-card.js';

/** The version a pinpad reports when it holds no tables for a network (§6.7.2, GTS). */
const NO_VERSION = '0000000000';

/**
 * The initialization's PinpadTables port on the ABECS driver: the version a network's tables carry
 * from GIX (PP_TABVERnn, §3.1.3.2), and a load as TLI, the plan's TLR blocks, TLE (§3.5). A load
 * cut before TLE leaves the pinpad on its previous tables, and the next run loads again.
 */
export class PinpadTablesAdapter implements PinpadTables {
  constructor(private readonly pinpad: CardPinpad & { gix(ids?: readonly number[]): Promise<GixResult> }) {}

  async tableVersion(acquirerIndex: string): Promise<string | undefined> {
    const n = Number(acquirerIndex);
    const r = await this.pinpad.gix([0x9300 + n]);
    const v = r.data[`PP_TABVER${acquirerIndex.padStart(2, '0')}`];
    return typeof v === 'string' && v !== NO_VERSION ? v : undefined;
  }

  /** `onBlock`: after TLI (0 of the TLR blocks) and after each TLR block, for a progress bar. */
  async load(plan: PinpadLoadPlan, onBlock?: (done: number, total: number) => void): Promise<void> {
    await card.loadTables(
      this.pinpad,
      { acquirer: plan.acquirerIndex, version: plan.tableVersion, blocks: plan.tlr },
      onBlock ? { onBlock } : undefined,
    );
  }
}

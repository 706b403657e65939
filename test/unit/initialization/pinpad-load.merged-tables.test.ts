import { describe, expect, it } from 'vitest';
import { decodeRecords, parseInitialization, planPinpadLoad } from '../../../src/initialization/index.js';
import vectors from '../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };
import { sandboxAnswer } from '../../helpers/initialization-tables.js';

/**
 * CA keys of table index "00" (ABECS 2.20 §4.1.2, "aglutinação"): a key the networks share is loaded
 * once with TAB_ACQ "00", which only unified management allows (§4.2.1: TLI_ACQIDX "00"); under a
 * network's TLI the pinpad discards any record of another TAB_ACQ (§6.7.3), "00" included.
 */
describe('CA keys of table index "00" load per the merged-table rules (§6.7.3)', () => {
  const [aidCommand, keyCommand] = vectors.tlr.commands as [string, string];
  const aids = decodeRecords(aidCommand.slice(8), 'aids');
  const keys = decodeRecords(keyCommand.slice(8), 'keys');
  const capk = keys.find((r) => r.kind === 'capk')!;
  // the specification's CA key (§3.5.3 example) as a merged one: TAB_LEN(3) TAB_ID(1) TAB_ACQ(2) …
  const relabel = (acq: string) => decodeRecords(capk.raw.slice(0, 4) + acq + capk.raw.slice(6), acq)[0]!;
  const merged = relabel('00');

  it('a set with a TAB_ACQ "00" CA key goes under TLI_ACQIDX "00", every record in the TLR blocks', () => {
    expect(aids.every((r) => r.acquirer === '03')).toBe(true);
    expect(merged.acquirer).toBe('00');
    const base = parseInitialization({ ...sandboxAnswer(), InitializationVersion: 1763769600001 });
    const tables = { ...base, aidRecords: aids, keyRecords: [merged] };
    const plan = planPinpadLoad(tables);
    expect(plan.acquirerIndex).toBe('00');
    const sent = plan.tlr.flatMap((b) => decodeRecords(b.slice(2), 'tlr'));
    expect(sent.map((r) => [r.kind, r.acquirer])).toEqual([
      ['aid', '03'],
      ['aid', '03'],
      ['capk', '00'],
    ]);
  });

  it("without merged keys the load stays under the network's index", () => {
    const base = parseInitialization({ ...sandboxAnswer(), InitializationVersion: 1763769600001 });
    expect(planPinpadLoad({ ...base, aidRecords: aids, keyRecords: [relabel('03')] }).acquirerIndex).toBe('03');
  });
});

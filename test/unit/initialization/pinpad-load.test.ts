import { describe, expect, it } from 'vitest';
import { decodeRecords, parseInitialization, planPinpadLoad, tlrBlocks } from '../../../src/initialization/index.js';
import vectors from '../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };
import { sandboxAnswer } from '../../helpers/initialization-tables.js';

const [aidCommand, keyCommand] = vectors.tlr.commands as [string, string];
const data = (command: string) => command.slice(6); // after "TLR" and CMD_LEN1

describe('pinpad table load (TLI/TLR/TLE)', () => {
  it("decodes the records of the specification's TLR examples (§3.5.3): AIDs, a CA key whose check sum verifies, revoked certificates", () => {
    const aids = decodeRecords(data(aidCommand).slice(2), 'TLR[0]');
    expect(aids.map((r) => [r.kind, r.acquirer, r.index, r.length])).toEqual([
      ['aid', '03', '01', 314],
      ['aid', '03', '02', 314],
    ]);
    expect(aids[1]!.fields.T1_AID).toBe('A0000000043060000000000000000000');
    const keys = decodeRecords(data(keyCommand).slice(2), 'TLR[1]');
    expect(keys.map((r) => r.kind)).toEqual(['capk', 'revoked', 'revoked', 'revoked']);
    expect(keys[0]!.fields).toMatchObject({
      T2_RID: 'A000000004',
      T2_CAPKIDX: 'EF',
      T2_MODLEN: '248',
      T2_CHECKSUM: '21766EBB0EE122AFB65D7845B73DB46BAB65427A',
    });
    expect(keys[3]!.fields).toMatchObject({ T3_RID: 'A000000003', T3_CAPKIDX: '94', T3_CERTSN: '666666' });
  });

  it('packs those records into exactly the TLR commands of the specification', () => {
    const records = [
      ...decodeRecords(data(aidCommand).slice(2), 'a'),
      ...decodeRecords(data(keyCommand).slice(2), 'k'),
    ].map((r) => r.raw);
    const blocks = tlrBlocks(records);
    expect(blocks.map((b) => `TLR${String(b.length).padStart(3, '0')}${b}`)).toEqual([aidCommand, keyCommand]);
    for (const b of tlrBlocks(Array.from({ length: 30 }, () => records[4]!))) expect(b.length).toBeLessThanOrEqual(999);
  });

  it('plans the load of the sandbox tables under the last 10 digits of the version, and skips it when the pinpad has that version', () => {
    const tables = parseInitialization({ ...sandboxAnswer(), InitializationVersion: 1763769600001 });
    const plan = planPinpadLoad(tables);
    expect(plan).toMatchObject({ acquirerIndex: '03', tableVersion: '3769600001', skip: false });
    const sent = plan.tlr.flatMap((b) => decodeRecords(b.slice(2), 'tlr'));
    expect(sent.map((r) => r.raw)).toEqual([...tables.aidRecords, ...tables.keyRecords].map((r) => r.raw));
    expect(sent.map((r) => r.kind).indexOf('capk')).toBe(tables.aidRecords.length);
    expect(planPinpadLoad(tables, '3769600001').skip).toBe(true);
    expect(planPinpadLoad(tables, '3769600000').skip).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { toolsTlvDecode } from '../../../src/cli/tools-tlv.js';
import { runCliCaptured } from '../../helpers/cli.js';

const run = (...argv: string[]): Promise<{ code: number; out: string; err: string }> =>
  runCliCaptured(argv, {}, [toolsTlvDecode]);

// PPSE SELECT response from coolbong/node-tlv example/build_ppse_fci.js.
const PPSE = '6F2C840E325041592E5359532E4444463031A51ABF0C1761154F07A0000000031010500A56495341435245444954';
// READ RECORD with PAN from coolbong/node-tlv tests/tlv.js.
const RECORD =
  '70385F24032012315F25030601019F0702FF005A0854133390000015139F0D05F8406420009F0E0500108800009F0F05F86064F8005F28020056';

describe('omnipos tools tlv decode', () => {
  it('--json gives {tag, length, value, name?, children?}', async () => {
    const r = await run('tools', 'tlv', 'decode', PPSE, '--json');
    expect(r.code).toBe(0);
    const [fci] = JSON.parse(r.out) as {
      tag: string;
      length: number;
      name: string;
      children: { tag: string; value: string }[];
    }[];
    expect(fci).toMatchObject({ tag: '6F', length: 44, name: 'File Control Information (FCI) Template' });
    expect(fci!.children.map((c) => c.tag)).toEqual(['84', 'A5']);
    expect(JSON.stringify(fci)).toContain('"tag":"4F","length":7,"value":"A0000000031010"');
  });

  it('prints a readable dump by default, spaces in the hex allowed, the PAN masked', async () => {
    const r = await run('tools', 'tlv', 'decode', ...RECORD.match(/.{1,16}/g)!);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  5A Application Primary Account Number (PAN) (8): 541333******1513');
    expect(r.out).not.toContain('5413339000001513');
  });

  it('exits 2 naming the offset on malformed data', async () => {
    const r = await run('tools', 'tlv', 'decode', '6F80');
    expect(r.code).toBe(2);
    expect(r.err).toContain('offset 1 (tag 6F): indefinite length (80) is not allowed');
  });
});

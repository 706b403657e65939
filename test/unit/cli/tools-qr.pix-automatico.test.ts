import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolsQrDecode, toolsQrEncode } from '../../../src/cli/tools-qr.js';
import vectors from '../../vectors/qr/pix-automatico.json' with { type: 'json' };
import { useTempDirs } from '../../helpers/temp-dir.js';
import { runCliCaptured } from '../../helpers/cli.js';

const run = (...argv: string[]): Promise<{ code: number; out: string; err: string }> =>
  runCliCaptured(argv, {}, [toolsQrDecode, toolsQrEncode]);
const rowOf = (composition: string) => vectors.pix.find((r) => r.expect.composition === composition)!;

const tempDir = useTempDirs();

describe('omnipos tools qr decode: Pix Automático and composite codes', () => {
  it('a static payment with a recurrence (Banco Central sandbox code): key, amount and the recurrence location', async () => {
    const row = rowOf('static+recurrence');
    const r = await run('tools', 'qr', 'decode', row.text);
    expect(r.code).toBe(0);
    expect(r.out).toContain('model      pix (static + recurrence)');
    expect(r.out).toContain(`key        ${row.expect.key}`);
    expect(r.out).toContain(`recurrence ${row.expect.recurrence.url} (Pix Automático, template 80)`);
  });

  it('--json carries composition and recurrence for a recurrence-only code', async () => {
    const row = rowOf('recurrence');
    const r = await run('tools', 'qr', 'decode', row.text, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      model: 'pix',
      pix: {
        type: 'recurrence',
        composition: 'recurrence',
        recurrence: { templateId: '80', url: row.expect.recurrence.url },
      },
    });
  });

  it('a dynamic charge with a recurrence', async () => {
    const row = rowOf('dynamic+recurrence');
    const r = await run('tools', 'qr', 'decode', row.text);
    expect(r.out).toContain('model      pix (dynamic + recurrence)');
    expect(r.out).toContain(`url        ${row.expect.url}`);
  });

  it('encode --pix with recurrenceUrl builds the published composite byte for byte', async () => {
    const row = vectors.pix.find((r) => 'build' in r && r.expect.composition === 'dynamic+recurrence')! as {
      text: string;
      build: object;
    };
    const dir = tempDir('omnipos-pix-');
    const file = path.join(dir, 'fields.json');
    writeFileSync(file, JSON.stringify(row.build));
    const r = await run('tools', 'qr', 'encode', '--pix', '--file', file);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${row.text}\n`);
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ST } from '../../../../src/sim/pinpad/card/kit.js';
import {
  RETURN_CODES,
  returnCodeName,
  returnCodeOf,
  type ReturnCodeName,
} from '../../../../tables/pinpad/return-codes.js';

/**
 * The pinpad return-code names the code uses are the table's (tables/pinpad/return-codes.ts, ABECS 2.20
 * §3.1.1): a constant named after a return code (`const ST_INVCALL = 10`, `ST.TIMEOUT`) holds that
 * code's number, in the driver, the virtual pinpad and the adapters alike.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** `const ST_NAME = 12` and `ERR_NAME = 10` (an ERR answer with that status) anywhere outside tables/. */
const CONSTANT = /\b(?:ST|ERR)_([A-Z0-9]+)\s*=\s*(\d+)\b/g;

describe('pinpad return-code names ↔ tables/pinpad/return-codes.ts', () => {
  it('the table is §3.1.1: codes and names each once, spot checks against the transcription', () => {
    expect(new Set(RETURN_CODES.map((r) => r.code)).size).toBe(RETURN_CODES.length);
    expect(new Set(RETURN_CODES.map((r) => r.name)).size).toBe(RETURN_CODES.length);
    // protocolo_abecs_2_20.md l. 1814 "ST_MCDATAERR 041", l. 1832 "ST_DUMBCARD 060"
    expect([returnCodeOf('ST_MCDATAERR'), returnCodeOf('ST_DUMBCARD')]).toEqual([41, 60]);
    for (const r of RETURN_CODES) expect(returnCodeName(r.code)).toBe(r.name);
  });

  it('every named return-code constant in src/ and drivers/ holds the number the table gives that name', () => {
    const found: string[] = [];
    const wrong: string[] = [];
    for (const f of [...files(path.join(ROOT, 'src')), ...files(path.join(ROOT, 'drivers'))]) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(CONSTANT)) {
        const name = `ST_${m[1]}` as ReturnCodeName;
        const where = `${path.relative(ROOT, f)}: ${m[0]}`;
        found.push(where);
        const code = RETURN_CODES.find((r) => r.name === name)?.code;
        if (code !== Number(m[2])) wrong.push(`${where} (the table: ${code ?? 'no such name'})`);
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(10);
    expect(wrong).toEqual([]);
  });

  it("the virtual pinpad's ST names are the table's", () => {
    for (const [key, code] of Object.entries(ST))
      expect([key, returnCodeOf(`ST_${key}` as ReturnCodeName)]).toEqual([key, code]);
  });
});

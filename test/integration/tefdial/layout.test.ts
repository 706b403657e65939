/**
 * The TEF Dial layout check (test/helpers/tefdial-layout.ts) bites: PayGo's published answer
 * passes it, and a planted wrong answer fails it for each kind of fault the table can name. The
 * TEF Dial tests run every request the PDV writes and every file the daemon writes through it
 * (test/helpers/tef-pdv.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layoutFaults } from '../../helpers/tefdial-layout.js';

/** PayGo's "Exemplos de arquivos": the sale's status file, and its answer's fields we write. */
const STATUS = { '000-000': 'CRT', '001-000': '34430576', '999-999': '0' };
const ANSWER: Record<string, string> = {
  '000-000': 'CRT',
  '001-000': '34430576',
  '002-000': '223546',
  '003-000': '12000',
  '004-000': '0',
  '009-000': '0',
  '010-000': 'NOVAREDE',
  '012-000': '19100205783',
  '013-000': '022167',
  '018-000': '03',
  '022-000': '17012011',
  '023-000': '191002',
  '027-000': '11011719100219100205783',
  '028-000': '2',
  '029-001': ' *** DEMONSTRACAO PAYGO ***',
  '029-002': ' COMPROVANTE DE TEF',
  '999-999': '0',
};

describe('the TEF Dial layout check', () => {
  it("passes PayGo's published status file and answer", () => {
    expect(layoutFaults(STATUS, 'status')).toEqual([]);
    expect(layoutFaults(ANSWER, 'answer')).toEqual([]);
  });

  it.each([
    [
      'a field the table does not list for that command',
      { '025-000': '123' },
      /025-000 .*not listed for the answer of CRT/,
    ],
    ['a field no table has', { '123-456': 'x' }, /123-456: no such field/],
    ['a width exceeded', { '001-000': '12345678901' }, /001-000 .*is not n\.\.10/],
    ['letters in a numeric field', { '003-000': '10,00' }, /003-000 .*is not n\.\.12/],
    ['a value outside its table', { '729-000': '3' }, /729-000 .*not in its table/],
    ['a receipt line the count does not cover', { '029-003': 'x' }, /029-003: beyond the count 2/],
    ['a receipt line missing', { '028-000': '3' }, /029-003: missing/],
    ['a character outside ASCII', { '029-001': 'TRANSAÇÃO' }, /029-001 .*outside ASCII/],
    ['a copy without its lines', { '712-000': '1' }, /713-001: missing/],
  ])('fails a planted wrong answer: %s', (_what, planted, fault) => {
    expect(layoutFaults({ ...ANSWER, ...planted }, 'answer').join('\n')).toMatch(fault);
  });

  it('fails a status file carrying more than its two fields, and a CNF request carrying an amount', () => {
    expect(layoutFaults({ ...STATUS, '009-000': '0' }, 'status').join('\n')).toMatch(/009-000 .*not listed/);
    expect(layoutFaults({ '000-000': 'CNF', '001-000': '1', '003-000': '100' }, 'request').join('\n')).toMatch(
      /003-000 .*not listed for the request of CNF/,
    );
  });

  it('every row of the table names its source; only an omnipos extension has no quote', () => {
    const table = JSON.parse(readFileSync(new URL('../../../tables/tefdial/fields.json', import.meta.url), 'utf8')) as {
      fields: { field: string; source: string[]; quote: string; ours?: boolean }[];
    };
    for (const row of table.fields) {
      expect(row.source.length, row.field).toBeGreaterThan(0);
      expect(row.ours === true || row.quote.length > 0, row.field).toBe(true);
    }
  });
});

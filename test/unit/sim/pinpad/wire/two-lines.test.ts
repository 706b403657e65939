import { describe, expect, it } from 'vitest';
import { twoLines } from '../../../../../src/sim/pinpad/wire/two-lines.js';

/** §2.3.3: NTM_MSG S32, "formatada para poder ser visualizada corretamente em 2 linhas de 16 caracteres". */
describe('notifications as two lines of 16 (§2.3.3)', () => {
  it('wraps at a word: the second line starts at the 17th character, never past 32', () => {
    const two = (a: string, b: string): string => `${a.padEnd(16)}${b}`;
    expect(twoLines('INSIRA OU PASSE O CARTAO')).toBe(two('INSIRA OU PASSE', 'O CARTAO'));
    expect(twoLines('RETIRE O CARTAO')).toBe('RETIRE O CARTAO');
    // cut at 32 before, the word across the 16th character split in two on the display
    expect(twoLines('APROXIME, INSIRA OU PASSE O CARTAO')).toBe(two('APROXIME, INSIRA', 'OU PASSE O'));
    expect(twoLines('USE A TARJA DO CARTAO')).toBe(two('USE A TARJA DO', 'CARTAO'));
    expect(twoLines('SENHA\rINCORRETA')).toBe(two('SENHA', 'INCORRETA'));
    expect(twoLines('')).toBe('');
    for (const t of ['X'.repeat(40), 'A B C D E F G H I J K L M N O P Q R S']) {
      expect(twoLines(t).length).toBeLessThanOrEqual(32);
    }
  });
});

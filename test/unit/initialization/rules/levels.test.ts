import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedByAll, requiredByAny, type Levels } from '../../../../src/initialization/index.js';
import { fixture } from '../../../helpers/initialization-fixture.js';
import { seed } from '../../../helpers/initialization-tables.js';

describe('flags at three levels (Parameters, Issuers, Bins): the stricter wins', () => {
  it('a permission needs every level; a requirement needs one (property over every combination)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (p, i, b, withIssuer, withBin) => {
          const set = fixture((t) => {
            t.Parameters[0]!.AllowTypingCardNumber = p;
            t.Issuers[0]!.AllowTypingCardNumber = i;
            t.Bins[1]!.AllowTypingCardNumber = b;
            t.Parameters[0]!.RequiresTypingLast4Digits = p;
            t.Issuers[0]!.RequiresTypingLast4Digits = i;
            t.Bins[1]!.RequiresTypingLast4Digits = b;
          });
          const bin = set.index.lookup('47617300')!.rows[0]!;
          const levels: Levels = {
            parameters: set.tables.parameters,
            ...(withIssuer ? { issuer: set.issuer(10) } : {}),
            ...(withBin ? { bin } : {}),
          };
          const present = [p, ...(withIssuer ? [i] : []), ...(withBin ? [b] : [])];
          expect(allowedByAll(levels, 'AllowTypingCardNumber')).toBe(present.every(Boolean));
          expect(requiredByAny(levels, 'RequiresTypingLast4Digits')).toBe(present.some(Boolean));
        },
      ),
      { numRuns: 1000, seed: seed('levels') },
    );
  });

  it('a flag only some levels carry is judged on those: CheckExpiryDate… lives in Bins only', () => {
    const set = fixture((t) => (t.Bins[1]!.CheckExpiryDateWhenCardNumberIsTyped = true));
    const bin = set.index.lookup('47617300')!.rows[0]!;
    expect(requiredByAny({ parameters: set.tables.parameters, bin }, 'CheckExpiryDateWhenCardNumberIsTyped')).toBe(
      true,
    );
    expect(requiredByAny({ parameters: set.tables.parameters }, 'CheckExpiryDateWhenCardNumberIsTyped')).toBe(false);
    expect(allowedByAll({ parameters: set.tables.parameters }, 'AllowCDCSale')).toBe(false); // no level carries it
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blockingSends, findings, productProgram, type BlockingSend } from '../../../scripts/house/pinpad-deadlines.js';
import { commandIds } from '../../../tables/pinpad/commands.js';

/**
 * Every blocking pinpad command the product sends has a deadline (scripts/house/pinpad-deadlines.ts). The blocking
 * commands are the Blocante boxes of ABECS 2.20's command tables, as tables/pinpad/commands.ts holds them (read
 * against the specification's text by test/unit/tables/pinpad/commands.flags.test.ts), not a list of our drivers.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BLOCKING = commandIds((r) => r.blocking);

/**
 * Sends whose signal is their caller's, from a function nothing in the product calls: each with why it may stay.
 * A product caller of one is walked like any other send.
 */
const CALLERS_OUTSIDE = new Map([
  [
    'drivers/pinpad/pinpad.ts getData',
    "the driver's GCD for its own tests and for users of the driver; the product sends GCD through run() with a deadline",
  ],
]);

const outside = (s: BlockingSend): boolean =>
  s.leaves.every(
    (l) => l.kind === 'uncalled' && CALLERS_OUTSIDE.has(`${s.at.split(':')[0]} ${l.text.split(' ').at(-1)}`),
  );

function plant(file: string, from: string, to: string): Record<string, string> {
  const abs = path.join(ROOT, file);
  const text = readFileSync(abs, 'utf8');
  expect(text.split(from), `${file} holds "${from}" once`).toHaveLength(2);
  return { [abs]: text.replace(from, to) };
}

describe('every blocking pinpad command has a deadline', () => {
  const program = productProgram(ROOT);

  it('reads the blocking commands from the specification table: the card, PIN, typing and menu commands, not GTK or GIN', () => {
    for (const id of ['GCX', 'GOX', 'FCX', 'GCD', 'GPN', 'MNU', 'RMC', 'CEX', 'CKE', 'GCR', 'GOC'])
      expect(BLOCKING).toContain(id);
    for (const id of ['GTK', 'GIN', 'GIX', 'EBX', 'DSP', 'FNC']) expect(BLOCKING).not.toContain(id);
  });

  it('finds every send of the card port and of the technician read, and each has a deadline on every way to it', () => {
    const sends = blockingSends(program, ROOT, BLOCKING);
    const found = sends.map((s) => `${s.at.split(':')[0]} ${s.command}`);
    for (const expected of [
      'src/adapters/pinpad-card.ts GCX',
      'src/adapters/pinpad-card.ts GPN',
      'src/adapters/pinpad-card.ts GOX',
      'src/adapters/pinpad-card.ts RMC',
      'src/adapters/pinpad-card-select.ts MNU',
      'src/adapters/pinpad-card-typed.ts GCD',
      'src/adapters/pinpad-cnp-card.ts GCD',
      'src/adapters/pinpad-card-finish.ts FCX',
      'src/adapters/pinpad-session.ts RMC',
      'drivers/pinpad/commands/card/contactless.ts GCX',
    ])
      expect(found).toContain(expected);
    // the GCX of readCardWithRules is reached from the sale's read and the technician's, each with its deadline
    const gcx = sends.find((s) => s.at.startsWith('drivers/pinpad/commands/card/contactless.ts'))!;
    expect(gcx.leaves.map((l) => l.at.split(':')[0]).sort()).toEqual([
      'src/adapters/pinpad-card.ts',
      'src/adapters/pinpad-session.ts',
    ]);
    expect(findings(sends.filter((s) => !outside(s)))).toEqual([]);
    expect(sends.filter(outside).map((s) => s.at)).toHaveLength(CALLERS_OUTSIDE.size);
  }, 300_000);

  it("fails on a planted reader without one: the card-present typed GCD of session 12, and a chip's PIN (GOX) on the sale's cancel alone", () => {
    const planted = productProgram(ROOT, {
      ...plant(
        'src/adapters/pinpad-card-typed.ts',
        'withDeadline(o.signal, gcdDeadlineMs(o.timeoutS, max))',
        'o.signal',
      ),
      ...plant(
        'src/adapters/pinpad-card.ts',
        '{ signal: withDeadline(signal, pinDeadlineMs(timeoutS)) }, // the card',
        '{ signal }, // the card',
      ),
    });
    const found = findings(blockingSends(planted, ROOT, BLOCKING).filter((s) => !outside(s)));
    expect(
      found.some((f) => /^src\/adapters\/pinpad-card-typed\.ts:\d+ GCD: no deadline \(an AbortController/.test(f)),
    ).toBe(true);
    expect(found.some((f) => /^src\/adapters\/pinpad-card\.ts:\d+ GOX: no deadline/.test(f))).toBe(true);
    // the way back names the engine's read: the sale's signal is a cancel, never a deadline
    expect(found.find((f) => f.includes(' GOX: '))).toContain('src/engine/card-reads.ts');
    expect(found.every((f) => / (GCD|GOX): /.test(f))).toBe(true);
  }, 300_000);
});

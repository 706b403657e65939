import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { healthView } from '../../../src/api/health.js';
import { ALARM_CODES, ALARMS_HEALTH_TELLS_ITSELF } from '../../../src/core/alarm-codes.js';
import { Outbox } from '../../../src/store/index.js';
import { filesBelow } from '../../../scripts/house/test-sources.js';
import { useTempStores } from '../../helpers/store.js';

const tempStore = useTempStores();

/** GET /v1/health's problems with these error alarms holding. */
function problems(codes: string[]): string[] {
  const db = tempStore();
  const view = healthView({
    outbox: new Outbox(db),
    engine: { busy: false },
    health: { alarms: () => codes.map((code) => ({ code, severity: 'error' })) },
  });
  db.close();
  return view.problems as string[];
}

describe("health's alarm problems: codes compared whole against the typed set", () => {
  it('an alarm health tells on its own line (dead letters, the pinpad gone) is not repeated as `alarm:`', () => {
    expect(problems([...ALARMS_HEALTH_TELLS_ITSELF])).toEqual([]);
  });

  it('a code that merely contains DEAD_LETTER or PINPAD_GONE is a problem of its own (the old regex hid it)', () => {
    // The old code skipped every code matching /DEAD_LETTER|PINPAD_GONE/: these two read ok.
    expect(problems(['NOT_A_DEAD_LETTER_YET', 'PINPAD_GONE_QUIET'])).toEqual([
      'alarm: NOT_A_DEAD_LETTER_YET',
      'alarm: PINPAD_GONE_QUIET',
    ]);
  });

  it('every other error alarm is a problem', () => {
    const others = ALARM_CODES.filter((c) => !ALARMS_HEALTH_TELLS_ITSELF.has(c));
    expect(others.length).toBeGreaterThan(0);
    expect(problems(others)).toEqual(others.map((c) => `alarm: ${c}`));
  });

  it('every alarm code src/ raises is in ALARM_CODES (the set health compares against is the whole list)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const raised = new Set<string>();
    for (const f of filesBelow(root, 'src').filter((x) => x.endsWith('.ts'))) {
      const code = readFileSync(path.join(root, f), 'utf8');
      // An alarm effect, event or condition names its code as `code: 'UPPER_CASE'` beside `alarm` or a severity.
      for (const m of code.matchAll(/code: '([A-Z][A-Z_]+)'/g)) {
        const around = code.slice(Math.max(0, m.index - 300), m.index + 300);
        if (/alarm|severity/.test(around)) raised.add(m[1]!);
      }
    }
    expect(raised.size).toBeGreaterThan(15);
    expect([...raised].filter((c) => !(ALARM_CODES as readonly string[]).includes(c)).sort()).toEqual([]);
  });
});

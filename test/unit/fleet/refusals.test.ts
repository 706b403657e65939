import { describe, expect, it } from 'vitest';
import { CommandRefusals } from '../../../src/fleet/refusals.js';
import { captureLogger } from '../../helpers/capture-log.js';

describe('CommandRefusals: a flood of refused fleet commands costs a line a minute and a few answers', () => {
  it('answers 10 at once, then one per 6 s; tells one warn line a minute with the counts and the unanswered', () => {
    let now = 0;
    const captured = captureLogger('info');
    const r = new CommandRefusals({ log: captured.log, now: () => now });
    const answered = Array.from({ length: 1000 }, (_, i) => r.refused(`reboot-${i}`, 'UNKNOWN_COMMAND')).filter(
      Boolean,
    ).length;
    expect(answered).toBe(10);
    expect(r.stats).toEqual({ refused: 1000, unanswered: 990 });
    now = 5_999;
    expect(r.refused('void', 'MOVES_MONEY')).toBe(false);
    now = 6_000;
    expect(r.refused('void', 'MOVES_MONEY')).toBe(true);
    expect(r.refused('void', 'MOVES_MONEY')).toBe(false);
    // After a quiet while the bucket is full again, never fuller.
    now = 600_000;
    expect(Array.from({ length: 20 }, () => r.refused('status', 'BAD_PAYLOAD')).filter(Boolean)).toHaveLength(10);
    r.flushAll();
    const lines = captured
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      level: 40,
      refused: { UNKNOWN_COMMAND: 1 },
      unanswered: 0,
      lastCommand: 'reboot-0',
    });
    // The first refusal past the minute tells the minute's sum, itself included.
    expect(lines[1]).toMatchObject({
      refused: { UNKNOWN_COMMAND: 999, MOVES_MONEY: 3, BAD_PAYLOAD: 1 },
      unanswered: 992,
    });
    expect(lines[1]?.msg).toBe(
      'fleet commands refused: 999 UNKNOWN_COMMAND, 3 MOVES_MONEY, 1 BAD_PAYLOAD, 992 of them unanswered (one line per 60 s)',
    );
    expect(lines[2]).toMatchObject({ refused: { BAD_PAYLOAD: 19 }, unanswered: 10 });
  });

  it('names at most 64 characters of a command', () => {
    const captured = captureLogger('info');
    new CommandRefusals({ log: captured.log }).refused('x'.repeat(300), 'UNKNOWN_COMMAND');
    expect(JSON.parse(captured.output())).toMatchObject({ lastCommand: 'x'.repeat(64) });
  });
});

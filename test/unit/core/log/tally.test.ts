import { describe, expect, it } from 'vitest';
import { TallyLog, tallyText, type TallyLine } from '../../../../src/core/log/tally.js';

function tally(o: { intervalMs?: number; maxSources?: number } = {}): {
  log: TallyLog;
  lines: TallyLine[];
  at: (ms: number) => void;
} {
  let now = 1_000_000;
  const lines: TallyLine[] = [];
  const log = new TallyLog({ ...o, now: () => now, tell: (l) => lines.push(l) });
  return { log, lines, at: (ms) => (now = 1_000_000 + ms) };
}

describe('TallyLog: refusals told once per source per interval', () => {
  it('tells the first refusal at once, sums the rest until the interval has passed', () => {
    const { log, lines, at } = tally();
    log.note('10.0.0.1', 'UNAUTHORIZED', 'GET /v1/payments');
    for (let i = 0; i < 999; i++) log.note('10.0.0.1', i % 2 ? 'UNAUTHORIZED' : 'INVALID_HOST', 'GET /v1/day');
    expect(lines).toEqual([
      { source: '10.0.0.1', counts: { UNAUTHORIZED: 1 }, last: 'GET /v1/payments', perSeconds: 60 },
    ]);
    at(59_999);
    log.flushDue();
    expect(lines).toHaveLength(1);
    at(60_000);
    log.flushDue();
    expect(lines[1]).toEqual({
      source: '10.0.0.1',
      counts: { INVALID_HOST: 500, UNAUTHORIZED: 499 },
      last: 'GET /v1/day',
      perSeconds: 60,
    });
    log.flushDue();
    log.flushAll();
    expect(lines).toHaveLength(2);
  });

  it('keeps sources apart, tells the oldest when one too many arrives, and everything at flushAll', () => {
    const { log, lines } = tally({ maxSources: 2 });
    log.note('a', 'X');
    log.note('a', 'X');
    log.note('b', 'Y');
    expect(lines.map((l) => l.source)).toEqual(['a', 'b']);
    log.note('c', 'Z');
    expect(lines.map((l) => [l.source, l.counts])).toEqual([
      ['a', { X: 1 }],
      ['b', { Y: 1 }],
      ['a', { X: 1 }],
      ['c', { Z: 1 }],
    ]);
    log.note('c', 'Z');
    log.flushAll();
    expect(lines.at(-1)).toMatchObject({ source: 'c', counts: { Z: 1 } });
  });

  it('writes counts as a person reads them', () => {
    expect(tallyText({ UNAUTHORIZED: 3, INVALID_HOST: 1 })).toBe('3 UNAUTHORIZED, 1 INVALID_HOST');
  });
});

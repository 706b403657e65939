import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, daemonDestination, rateLimited, rotatingFile } from '../../../../src/core/log/index.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';

// Issue 35, "Logs bounded": before, <stateDir>/logs/omnipos.log grew for ever and a burst of refused
// requests wrote one line each, as fast as an outsider could send them.

const tempDir = useTempDirs();

describe('the log file has a size cap and rotation', () => {
  it('never past (keep + 1) × maxBytes: omnipos.log, .1 … .keep, the oldest deleted', () => {
    const dir = tempDir();
    const file = path.join(dir, 'omnipos.log');
    const dest = rotatingFile({ file, maxBytes: 16 * 1024, keep: 2 });
    const log = createLogger({ destination: dest });
    for (let i = 0; i < 2000; i++) log.info({ i, pad: 'x'.repeat(100) }, 'a line');
    expect(readdirSync(dir).sort()).toEqual(['omnipos.log', 'omnipos.log.1', 'omnipos.log.2']);
    for (const f of readdirSync(dir)) expect(statSync(path.join(dir, f)).size).toBeLessThanOrEqual(16 * 1024 + 300);
    // The newest lines are in omnipos.log, the ones before them in .1: nothing lost between them.
    const last = readFileSync(file, 'utf8').trim().split('\n');
    const before = readFileSync(`${file}.1`, 'utf8').trim().split('\n');
    const n = (l: string): number => (JSON.parse(l) as { i: number }).i;
    expect(n(last.at(-1) as string)).toBe(1999);
    expect(n(last[0] as string)).toBe(n(before.at(-1) as string) + 1);
    dest.end();
  });

  it('with log.file off (systemd: the journal alone) the lines go to standard output only', () => {
    let out = '';
    const log = createLogger({
      destination: daemonDestination({ maxLinesPerSecond: 100, stdout: { write: (l: string) => (out += l) } }),
    });
    log.info('to the journal only');
    expect(out).toContain('to the journal only');
  });
});

describe('a burst of lines is rate-limited', () => {
  it('past maxPerSecond, info lines are dropped and counted; warn and error never are', () => {
    let t = 1_000_000;
    const lines: string[] = [];
    const dest = rateLimited({ write: (l: string) => lines.push(l) }, { maxPerSecond: 50, now: () => t });
    const log = createLogger({ destination: dest });
    for (let i = 0; i < 1000; i++) log.info({ i }, 'refused: bad token');
    for (let i = 0; i < 10; i++) log.error({ i }, 'the journal cannot commit');
    expect(lines).toHaveLength(60);
    expect(dest.dropped()).toBe(950);
    t += 1000;
    log.info('next second');
    const [summary, next] = lines
      .slice(60)
      .map((l) => JSON.parse(l) as { level: number; dropped?: number; msg: string });
    expect(summary).toMatchObject({ level: 40, dropped: 950 });
    expect(next?.msg).toBe('next second');
  });
});

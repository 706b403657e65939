import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PinpadMemory } from '../../../../src/sim/pinpad/memory.js';

const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-pinpad-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PinpadMemory: what the virtual pinpad keeps across power cycles', () => {
  it('a missing file is a new pinpad; each use is on disk before it returns, and a new memory reads it back', () => {
    const file = path.join(dir, 'one.json');
    const m = new PinpadMemory(file);
    expect([m.counter('pin'), m.counter('data')]).toEqual([0, 0]);
    expect(existsSync(file)).toBe(false);
    m.use('data', 1);
    m.use('data', 2);
    m.use('pin', 1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ format: 1, dukpt: { pin: 1, data: 2 } });
    expect(existsSync(`${file}.tmp`)).toBe(false);
    const again = new PinpadMemory(file);
    expect([again.counter('pin'), again.counter('data')]).toEqual([1, 2]);
  });

  it('without a file the counters live as long as the object', () => {
    const m = new PinpadMemory();
    m.use('pin', 5);
    expect(m.counter('pin')).toBe(5);
    expect(new PinpadMemory().counter('pin')).toBe(0);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['another format', '{"format":2,"dukpt":{"pin":0,"data":0}}', /expected \{"format":1/],
    ['a counter missing', '{"format":1,"dukpt":{"pin":0}}', /dukpt\.data/],
    ['eleven one-bits (X9.24 skips them)', '{"format":1,"dukpt":{"pin":2047,"data":0}}', /dukpt\.pin/],
    ['past 21 bits', '{"format":1,"dukpt":{"pin":0,"data":2097152}}', /dukpt\.data/],
  ])('a file with %s is refused, naming the file', (_, text, why) => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, text);
    expect(() => new PinpadMemory(file)).toThrow(why);
    expect(() => new PinpadMemory(file)).toThrow(/bad\.json/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

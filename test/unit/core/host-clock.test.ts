import { describe, expect, it } from 'vitest';
import { HostClock } from '../../../src/core/host-clock.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe("the host's clock from Date headers", () => {
  it('follows a host that is ahead or behind by more than the tolerance, and ignores second-truncation jitter', () => {
    const own = new FakeClock('2026-11-22T13:00:00.300Z');
    const host = new HostClock(own);
    expect(host.observe(new Date('2026-11-22T13:00:00.000Z'))).toBe(false);
    expect(host.now().toISOString()).toBe('2026-11-22T13:00:00.300Z');
    expect(host.observe(new Date('2026-11-23T03:00:05.000Z'))).toBe(true);
    expect(host.now().toISOString()).toBe('2026-11-23T03:00:05.500Z');
    own.advance(1000);
    expect(host.observe(new Date('2026-11-23T03:00:06.000Z'))).toBe(false);
    expect(host.now().toISOString()).toBe('2026-11-23T03:00:06.500Z');
    expect(host.observe(new Date('2026-11-22T13:00:01.000Z'))).toBe(true);
    expect(Math.abs(host.now().getTime() - Date.parse('2026-11-22T13:00:01.500Z'))).toBe(0);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseControl } from '../../../../src/sim/pinpad/control.js';
import { FAULT_KINDS } from '../../../../src/sim/pinpad/faults.js';

/** The members each fault kind may carry, and their JSON types (src/sim/pinpad/faults.ts `Fault`). */
const MEMBERS: Record<string, Record<string, 'number' | 'boolean' | 'string'>> = {
  'bad-crc': { count: 'number' },
  'lost-ack': { count: 'number' },
  'nak-storm': { count: 'number' },
  delay: { ms: 'number', count: 'number' },
  garbage: { bytes: 'number', control: 'boolean', count: 'number' },
  'truncated-answer': { keep: 'number', count: 'number' },
  'lost-answer': { count: 'number' },
  'clear-ntm': { count: 'number' },
  'can-drops-emv': { count: 'number' },
  silence: { ms: 'number' },
  disconnect: { when: 'string', command: 'string', replugAfterMs: 'number' },
  reboot: { command: 'string' },
};

describe('the control port reads a fault member by member', () => {
  it('a member of the wrong type is refused, not passed on to the engine', () => {
    // Before: only `kind` (and delay's ms, disconnect's when) were read; the rest went through as given.
    expect(parseControl('{"cmd":"fault","fault":{"kind":"garbage","bytes":"many"}}')).toHaveProperty('error');
    expect(parseControl('{"cmd":"fault","fault":{"kind":"nak-storm","count":"3"}}')).toEqual({
      error: 'fault.count must be a number',
    });
    expect(parseControl('{"cmd":"fault","fault":{"kind":"disconnect","replugAfterMs":"soon"}}')).toHaveProperty(
      'error',
    );
    expect(parseControl('{"cmd":"fault","fault":"bad-crc"}')).toHaveProperty('error');
  });

  it('reads the reboot with the line up: now, or at a command', () => {
    expect(parseControl('{"cmd":"fault","fault":{"kind":"reboot"}}')).toEqual({
      cmd: 'fault',
      fault: { kind: 'reboot' },
    });
    expect(parseControl('{"cmd":"fault","fault":{"kind":"reboot","command":"GCD"}}')).toEqual({
      cmd: 'fault',
      fault: { kind: 'reboot', command: 'GCD' },
    });
    expect(parseControl('{"cmd":"fault","fault":{"kind":"reboot","command":7}}')).toHaveProperty('error');
  });

  it('members a kind does not have are left out', () => {
    expect(parseControl('{"cmd":"fault","fault":{"kind":"silence","ms":5,"count":2,"colour":"red"}}')).toEqual({
      cmd: 'fault',
      fault: { kind: 'silence', ms: 5 },
    });
  });

  it('any fault object: an error, or a fault whose every member is one its kind has, of its type (1000 runs)', () => {
    const member = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.string(),
      fc.constant(null),
      fc.constantFrom('now', 'mid-answer'),
    );
    const fault = fc.record(
      {
        kind: fc.oneof(fc.constantFrom(...FAULT_KINDS), fc.string()),
        count: member,
        ms: member,
        bytes: member,
        control: member,
        keep: member,
        when: member,
        command: member,
        replugAfterMs: member,
      },
      { requiredKeys: ['kind'] },
    );
    fc.assert(
      fc.property(fault, (f) => {
        const r = parseControl(JSON.stringify({ cmd: 'fault', fault: f }));
        if ('error' in r) return;
        expect(r.cmd).toBe('fault');
        if (r.cmd !== 'fault') return;
        const allowed = MEMBERS[r.fault.kind];
        expect(allowed).toBeDefined();
        for (const [k, v] of Object.entries(r.fault)) {
          if (k === 'kind') continue;
          expect(typeof v).toBe(allowed?.[k]);
          expect(v).toEqual((f as Record<string, unknown>)[k]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

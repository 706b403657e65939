import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCommand, FLEET_COMMANDS } from '../../../src/fleet/commands.js';
import { mask64 } from '../../../src/fleet/messages.js';
import { FleetTopics, splitFleetTopic } from '../../../src/fleet/topics.js';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');

describe('fleet commands: only the safe list, with a reason for anything else', () => {
  it('accepts the four commands with an empty payload or an id', () => {
    for (const name of FLEET_COMMANDS) {
      expect(checkCommand(name, bytes(''))).toMatchObject({ ok: true, command: name, requestId: null });
      expect(checkCommand(name, bytes('{"id":"req-1"}'))).toMatchObject({
        ok: true,
        command: name,
        requestId: 'req-1',
      });
    }
    expect(checkCommand('day-report', bytes('{"id":"r","date":"2026-11-25"}'))).toMatchObject({
      ok: true,
      args: { date: '2026-11-25' },
    });
  });

  it('refuses what moves money, naming why, whatever the payload', () => {
    for (const name of ['void', 'sale', 'confirm', 'undo', 'refund', 'cancel', 'pix', 'void-all']) {
      const r = checkCommand(name, bytes('{"id":"x1","amount":100}'));
      expect(r).toMatchObject({ ok: false, code: 'MOVES_MONEY', requestId: 'x1' });
      expect(!r.ok && r.reason).toContain('moves money');
    }
  });

  it('refuses unknown names, bad JSON, extra fields and oversize payloads', () => {
    expect(checkCommand('reboot', bytes(''))).toMatchObject({ ok: false, code: 'UNKNOWN_COMMAND' });
    expect(checkCommand('init', bytes('{'))).toMatchObject({ ok: false, code: 'BAD_PAYLOAD' });
    expect(checkCommand('init', bytes('[1]'))).toMatchObject({ ok: false, code: 'BAD_PAYLOAD' });
    expect(checkCommand('init', bytes('{"id":"a","amount":1}'))).toMatchObject({
      ok: false,
      code: 'BAD_PAYLOAD',
      requestId: 'a',
    });
    expect(checkCommand('status', bytes('{"date":"2026-01-01"}'))).toMatchObject({ ok: false, code: 'BAD_PAYLOAD' });
    expect(checkCommand('init', new Uint8Array(5000))).toMatchObject({ ok: false, code: 'BAD_PAYLOAD' });
  });

  it('never throws, and accepts only the four names (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 300 }), (name, payload) => {
        const r = checkCommand(name, payload);
        if (r.ok) expect(FLEET_COMMANDS).toContain(r.command);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('fleet topics and masking', () => {
  it('builds the tree under the prefix and reads command names one level under cmd/', () => {
    const t = new FleetTopics('omnipos/m1/T0000001');
    expect([t.status, t.payments, t.alarms, t.day('2026-11-25'), t.commands, t.result('init')]).toEqual([
      'omnipos/m1/T0000001/status',
      'omnipos/m1/T0000001/payments',
      'omnipos/m1/T0000001/alarms',
      'omnipos/m1/T0000001/day/2026-11-25',
      'omnipos/m1/T0000001/cmd/+',
      'omnipos/m1/T0000001/cmd/init/result',
    ]);
    expect(t.commandName('omnipos/m1/T0000001/cmd/init')).toBe('init');
    expect(t.commandName('omnipos/m1/T0000001/cmd/init/result')).toBeUndefined();
    expect(t.commandName('omnipos/m1/T0000002/cmd/init')).toBeUndefined();
    expect(splitFleetTopic('omnipos/m1/T0000001/day/2026-11-25', 'omnipos')).toEqual({
      prefix: 'omnipos/m1/T0000001',
      leaf: 'day/2026-11-25',
    });
  });

  it('cuts a masked PAN to its first six and last four digits', () => {
    expect(mask64('47617300****0060')).toBe('476173******0060');
    expect(mask64('4761730000000060')).toBe('476173******0060');
    expect(mask64('12345')).toBeUndefined();
    expect(mask64(undefined)).toBeUndefined();
  });
});

// The request id of a fleet command goes out with the command and must come back, unchanged, in
// its answer: the operator matches the answer by it. The full-suite run that lost an answer
// (`fleet cmd … void`: "no answer from omnipos/m1/T0000003 within 30 s", the terminal counting the
// command refused) had the terminal scrub the echoed id like a PAN: `cli-<Date.now()>-…` holds a
// 13-digit run that passes Luhn one time in ten.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandRequestId } from '../../../src/cli/fleet-broker.js';
import { scrubText } from '../../../src/core/log/index.js';
import { luhnCheckDigit } from '../../../src/crypto/check-digits.js';
import { checkCommand } from '../../../src/fleet/commands.js';
import { commandAnswer } from '../../../src/fleet/messages.js';

const seed = Date.now() % 2 ** 31;
console.log(`fleet request id properties, fast-check seed ${seed}`);

/** A millisecond timestamp (13 digits) that passes Luhn, as Date.now() returns one time in ten. */
const luhnNow = (ms: number): number => {
  const body = String(Math.trunc(ms / 10));
  return Number(body + String(luhnCheckDigit(body)));
};

/** What `omnipos fleet cmd` sent before: `cli-<Date.now()>-<random>`. */
const formerCliId = (now: number): string => `cli-${now}-abcdef`;

/**
 * A request id as checkCommand accepts it (1 to 64 printable ASCII characters), half of them
 * holding a PAN-shaped run: 13 to 19 digits passing Luhn, as a timestamp or a counter may.
 */
const requestIds = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]{1,64}$/),
  fc
    .tuple(fc.stringMatching(/^[a-z.-]{0,8}$/), fc.stringMatching(/^[0-9]{12,18}$/), fc.stringMatching(/^[a-z.]{0,8}$/))
    .map(([before, body, after]) => `${before}${body}${String(luhnCheckDigit(body))}${after}`),
);

describe('a fleet command’s answer carries the request id exactly as it came', () => {
  it('the id of the lost answer: a CLI id whose timestamp passes Luhn, echoed unchanged (the old answer cut it to 6+4)', () => {
    const id = formerCliId(luhnNow(1_764_116_311_234));
    expect(scrubText(id), 'the premise: the scrubber does cut this id').not.toBe(id);
    const check = checkCommand('void', Buffer.from(JSON.stringify({ id })));
    expect(check).toMatchObject({ ok: false, code: 'MOVES_MONEY', requestId: id });
    const body = JSON.parse(
      commandAnswer(check.requestId, { command: 'void', ok: false, error: { code: 'MOVES_MONEY', message: 'x' } }),
    ) as Record<string, unknown>;
    expect(body.id).toBe(id);
    expect(body).toMatchObject({ command: 'void', ok: false, error: { code: 'MOVES_MONEY' } });
  });

  it('any id checkCommand accepts comes back unchanged; the rest of the answer is still scrubbed (a PAN in a message keeps 6+4)', () => {
    fc.assert(
      fc.property(requestIds, (id) => {
        const check = checkCommand('status', Buffer.from(JSON.stringify({ id })));
        expect(check).toMatchObject({ ok: true, requestId: id });
        const body = JSON.parse(
          commandAnswer(check.requestId, {
            command: 'init',
            ok: false,
            error: { code: 'FAILED', message: 'card 4111111111111111 in a message' },
          }),
        ) as { id: string; error: { message: string } };
        expect(body.id).toBe(id);
        expect(body.error.message).toBe('card 411111******1111 in a message');
      }),
      { numRuns: 1000, seed },
    );
    expect(JSON.parse(commandAnswer(null, { command: 'x', ok: false }))).toEqual({ id: null, command: 'x', ok: false });
  });
});

describe('omnipos fleet cmd: a request id no scrubber can cut', () => {
  it('holds no PAN-shaped run whatever the clock and the random draw, and a terminal accepts it as its id', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
          fc.integer().map((n) => luhnNow(1.7e12 + n)),
        ),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (now, r) => {
          const id = commandRequestId(now, () => r);
          expect(scrubText(id)).toBe(id);
          expect(checkCommand('init', Buffer.from(JSON.stringify({ id })))).toMatchObject({ ok: true, requestId: id });
        },
      ),
      { numRuns: 1000, seed },
    );
  });

  it('a timestamp that passes Luhn: the former id is cut by an answer scrubber (an older terminal), the new one is not', () => {
    const now = luhnNow(1_764_116_311_234);
    expect(scrubText(formerCliId(now))).not.toBe(formerCliId(now));
    const id = commandRequestId(now, () => 0.123456789);
    expect(id).toMatch(/^cli\.[0-9a-z]+\.[0-9a-z]+$/);
    expect(scrubText(id)).toBe(id);
    expect(commandRequestId(now, () => 0.1)).not.toBe(commandRequestId(now, () => 0.2));
  });
});

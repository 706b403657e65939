import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OmniposError } from '../../../src/core/errors/index.js';
import { scrubText } from '../../../src/core/log/index.js';
import { captureLogger } from '../../helpers/capture-log.js';

// Published test card numbers (Luhn-valid): Visa 4012345678909 (ANSI X9.24 examples), Visa
// 4111111111111111 and Mastercard 5555555555554444 (card brands' public test numbers).
const PANS = ['4012345678909', '4111111111111111', '5555555555554444', '6011000990139424'];

function digitsOnly(s: string): string {
  return s.replace(/[^0-9]/g, '');
}

describe('logger redaction', () => {
  it('masks a PAN inside the message string, keeping first six and last four', () => {
    const { log, output } = captureLogger();
    log.info(`card 4012345678909 read on chip`);
    log.info('card %s read', '4111 1111 1111 1111');
    const out = output();
    expect(out).not.toContain('4012345678909');
    expect(out).toContain('401234***8909');
    expect(out.replace(/ /g, '')).not.toContain('4111111111111111');
    expect(out).toContain('411111******1111');
  });

  it('masks a PAN nested deep in an object and redacts sensitive keys at any depth', () => {
    const { log, output } = captureLogger();
    log.info(
      {
        request: {
          Payment: {
            Card: {
              TrackTwoData: '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
              PinBlock: { EncryptedPinBlock: 'A1B2C3D4E5F60718', Ksn: 'FFFFF030331234500012' },
              EncryptedCardData: { TrackTwoDataKSN: 'FFFFF030331234500012' },
            },
            note: ['customer said 5555-5555-5555-4444'],
          },
        },
        headers: { Authorization: 'Bearer abc.def.ghi' },
        merchantKey: 'SECRETKEY',
        access_token: 'tok-123',
      },
      'sale sent',
    );
    const out = output();
    for (const secret of [
      '0123456789ABCDEF0123',
      'A1B2C3D4E5F60718',
      'FFFFF030331234500012',
      'abc.def.ghi',
      'SECRETKEY',
      'tok-123',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(digitsOnly(out)).not.toContain('5555555555554444');
    expect(out).toContain('555555******4444');
    expect(out).toContain('[REDACTED]');
  });

  it("masks a PAN in an error's message, stack and context", () => {
    const { log, output } = captureLogger();
    log.error(new Error('card 6011000990139424 refused'));
    log.error(
      { err: new OmniposError('INVALID_ARGUMENT', 'bad 4012345678909', { pan: '4111111111111111' }) },
      'failed',
    );
    const out = output();
    for (const pan of PANS) expect(out).not.toContain(pan);
    expect(out).toContain('601100******9424');
    expect(JSON.parse(out.split('\n')[0]!).msg).toBe('card 601100******9424 refused');
  });

  it('scrubs the bindings of child loggers, and of their children', () => {
    const { log, output } = captureLogger();
    log.child({ component: 'engine', lastCard: '4012345678909' }).info('ready');
    log.child({ component: 'a' }).child({ sub: 'b', card: '5555555555554444' }).child({ deeper: 'c' }).info('nested');
    expect(output()).not.toContain('5555555555554444');
    expect(output()).toContain('"deeper":"c"');
    expect(output()).not.toContain('4012345678909');
    expect(output()).toContain('"component":"engine"');
  });

  it('leaves digit runs that are not card numbers alone (a non-Luhn 15-digit order id)', () => {
    expect(scrubText('order 263260010000123 sent')).toBe('order 263260010000123 sent');
    expect(scrubText('2026-11-22 10:00:00')).toBe('2026-11-22 10:00:00');
  });

  it('never lets a Luhn-valid PAN of 13 to 19 digits through, whatever surrounds it (property)', () => {
    const luhnPan = fc
      .tuple(
        fc.integer({ min: 12, max: 18 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }),
      )
      .map(([n, ds]) => {
        const body = [4, ...ds].slice(0, n);
        let sum = 0;
        for (let i = 0; i < body.length; i++) {
          let d = body[body.length - 1 - i]!;
          if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
          sum += d;
        }
        return [...body, (10 - (sum % 10)) % 10].join('');
      });
    const around = fc.string({ maxLength: 20 }).map((s) => s.replace(/[0-9]/g, 'x'));
    const seed = Date.now();
    console.log(`logger PAN property seed ${seed}`);
    fc.assert(
      fc.property(luhnPan, around, around, (pan, before, after) => {
        const { log, output } = captureLogger();
        log.info({ nested: { text: `${before}${pan}${after}` } }, `${before}${pan}${after}`);
        return !output().includes(pan);
      }),
      { numRuns: 1000, seed },
    );
  });
});

describe('sensitive keys', () => {
  it('redacts secrets but keeps the identifiers a receipt or a technician needs', async () => {
    const { isSensitiveKey } = await import('../../../src/core/log/index.js');
    for (const k of [
      'Authorization',
      'PinBlock',
      'TrackTwoData',
      'TrackTwoDataKSN',
      'card_cvv',
      'client_secret',
      'MerchantKey',
      'access_token',
      'EmvData',
      'CardNumber',
      'bdk',
      'pin',
    ]) {
      expect(isSensitiveKey(k), k).toBe(true);
    }
    for (const k of [
      'authorizationCode',
      'AuthorizationCode',
      'paymentId',
      'merchantOrderId',
      'nsu',
      'maskedPan',
      'idempotencyKey',
      'ReturnCode',
      'component',
    ]) {
      expect(isSensitiveKey(k), k).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  conditionOf,
  decodeRealtimeStatus,
  decodeTransmitPaperStatus,
  encodeRealtimeStatus,
  IDLE_STATUS,
  isRealtimeReply,
  isTransmitStatusReply,
  statusEvents,
  type PrinterStatus,
} from '../../../../drivers/printer/index.js';
import { fcSeed, SRC } from '../../../helpers/escpos-sources.js';

const seed = fcSeed('printer');

describe('real-time status (DLE EOT n)', () => {
  /** [what, replies to DLE EOT 1..4, fields that must be true, condition, source] */
  const ROWS: [string, [number, number, number, number], (keyof PrinterStatus)[], string, string][] = [
    ['all fixed bits only: ready', [0x12, 0x12, 0x12, 0x12], ['online'], 'idle', SRC.EPSON_DLE_EOT_12],
    [
      'paper out: offline, stopped by paper end, roll end sensor',
      [0x1a, 0x32, 0x12, 0x7e],
      ['stoppedByPaperEnd', 'paperOut', 'paperNearEnd'],
      'paper-out',
      SRC.HARDLESS_PAPER_OUT,
    ],
    [
      'near end only (0x0C in n = 4)',
      [0x12, 0x12, 0x12, 0x1e],
      ['online', 'paperNearEnd'],
      'idle',
      SRC.EPSON_DLE_EOT_34,
    ],
    [
      'cover open (bit 2 of n = 2), offline',
      [0x1a, 0x16, 0x12, 0x12],
      ['coverOpen'],
      'cover-open',
      SRC.EPSON_DLE_EOT_12,
    ],
    [
      'autocutter error (bit 3 of n = 3) with error occurred',
      [0x1a, 0x52, 0x1a, 0x12],
      ['cutterError', 'errorOccurred'],
      'error',
      SRC.EPSON_DLE_EOT_34,
    ],
    [
      'unrecoverable error (bit 5 of n = 3)',
      [0x1a, 0x52, 0x32, 0x12],
      ['unrecoverableError', 'errorOccurred'],
      'error',
      SRC.EPSON_DLE_EOT_34,
    ],
    [
      'auto-recoverable error (bit 6 of n = 3: head hot)',
      [0x1a, 0x52, 0x52, 0x12],
      ['autoRecoverableError', 'errorOccurred'],
      'error',
      SRC.EPSON_DLE_EOT_34,
    ],
    ['offline alone (bit 3 of n = 1)', [0x1a, 0x12, 0x12, 0x12], [], 'offline', SRC.EPSON_DLE_EOT_12],
    [
      'drawer pin 3 high, feed button pressed',
      [0x56, 0x1a, 0x12, 0x12],
      ['online', 'drawerPin3High', 'feedButton'],
      'idle',
      SRC.EPSON_DLE_EOT_12,
    ],
  ];

  it.each(ROWS)('%s', (_what, bytes, set, condition) => {
    const s = decodeRealtimeStatus(...bytes);
    for (const [k, v] of Object.entries(s)) {
      if (k === 'online') expect(v).toBe(set.includes('online'));
      else if (k !== 'feedingByButton') expect([k, v]).toEqual([k, set.includes(k as keyof PrinterStatus)]);
    }
    expect(conditionOf(s)).toBe(condition);
    expect(encodeRealtimeStatus(s)).toEqual(bytes.map((b, i) => (i === 1 ? b & ~0x08 : b)));
  });

  it('a byte without the fixed bits 0xx1xx10 is a protocol error, not a status', () => {
    expect(() => decodeRealtimeStatus(0x00, 0x12, 0x12, 0x12)).toThrowError(
      expect.objectContaining({ code: 'PRINTER_PROTOCOL' }) as Error,
    );
    expect(() => decodeRealtimeStatus(0x12, 0x12, 0x12, 0x93)).toThrowError(
      expect.objectContaining({ code: 'PRINTER_PROTOCOL' }) as Error,
    );
  });

  it(`GS r 1 answers (bit 4 off) are told apart from DLE EOT replies (bit 4 on) (${SRC.EPSON_GS_R})`, () => {
    expect(decodeTransmitPaperStatus(0x00)).toEqual({ paperNearEnd: false, paperOut: false });
    expect(decodeTransmitPaperStatus(0x03)).toEqual({ paperNearEnd: true, paperOut: false });
    expect(decodeTransmitPaperStatus(0x0c)).toEqual({ paperNearEnd: false, paperOut: true });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (b) => !(isRealtimeReply(b) && isTransmitStatusReply(b))),
      { numRuns: 1000, seed },
    );
  });

  it('any status survives encode → decode (property)', () => {
    const arb = fc.record({
      online: fc.boolean(),
      coverOpen: fc.boolean(),
      paperOut: fc.boolean(),
      paperNearEnd: fc.boolean(),
      stoppedByPaperEnd: fc.boolean(),
      errorOccurred: fc.boolean(),
      cutterError: fc.boolean(),
      unrecoverableError: fc.boolean(),
      autoRecoverableError: fc.boolean(),
      waitingOnlineRecovery: fc.boolean(),
      feedButton: fc.boolean(),
      drawerPin3High: fc.boolean(),
    });
    fc.assert(
      fc.property(arb, (s) => {
        expect(decodeRealtimeStatus(...encodeRealtimeStatus(s))).toEqual(s);
      }),
      { numRuns: 1000, seed },
    );
  });

  it('events: each condition that begins, then idle when all clear', () => {
    const out = { ...IDLE_STATUS, online: false, paperOut: true, stoppedByPaperEnd: true };
    expect(statusEvents(undefined, IDLE_STATUS).map((e) => e.type)).toEqual(['idle']);
    expect(statusEvents(IDLE_STATUS, out).map((e) => e.type)).toEqual(['paper-out']);
    expect(statusEvents(out, out)).toEqual([]);
    expect(statusEvents(out, { ...IDLE_STATUS, paperNearEnd: true }).map((e) => e.type)).toEqual([
      'paper-near-end',
      'idle',
    ]);
    expect(statusEvents(IDLE_STATUS, { ...IDLE_STATUS, online: false, coverOpen: true }).map((e) => e.type)).toEqual([
      'cover-open',
    ]);
    expect(statusEvents(IDLE_STATUS, { ...IDLE_STATUS, online: false }).map((e) => e.type)).toEqual(['offline']);
    const cut = statusEvents(IDLE_STATUS, { ...IDLE_STATUS, online: false, cutterError: true, errorOccurred: true });
    expect(cut).toEqual([expect.objectContaining({ type: 'error', cause: 'cutter' })]);
  });
});

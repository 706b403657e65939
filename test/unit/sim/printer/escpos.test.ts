import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEscPos, encodeCommand, type CommandName } from '../../../../drivers/printer/index.js';
import { EscPosReader, type PrinterOp } from '../../../../src/sim/printer/escpos/reader.js';
import {
  realtimeAnswer,
  transmitStatusAnswer,
  type SimPrinterStatus,
} from '../../../../src/sim/printer/escpos/status.js';

/**
 * The virtual printer's own ESC/POS reading (src/sim/printer/escpos), from Epson's ESC/POS Command
 * Reference, apart from the driver's (drivers/printer): the reference's byte values here, and the two
 * readings held to each other on whatever the driver's encoder writes.
 */
const read = (bytes: number[]): PrinterOp[] => {
  const r = new EscPosReader();
  return [...r.push(Uint8Array.from(bytes)), ...r.end()];
};
interface Seen {
  kind?: string;
  name?: string;
  args?: number[];
  data?: Uint8Array;
}
const seen = (o: { kind: string; name?: string; args?: readonly number[]; data?: Uint8Array }): Seen =>
  o.kind === 'command' ? { name: o.name, args: [...(o.args ?? [])], data: o.data } : { kind: o.kind };

const IDLE: SimPrinterStatus = {
  online: true,
  coverOpen: false,
  paperOut: false,
  paperNearEnd: false,
  stoppedByPaperEnd: false,
  errorOccurred: false,
  cutterError: false,
  unrecoverableError: false,
  autoRecoverableError: false,
  waitingOnlineRecovery: false,
  feedButton: false,
  drawerPin3High: false,
};

describe("the virtual printer's ESC/POS reader", () => {
  it("reads the reference's byte values: ESC @, ESC a 1, GS V 66 3, GS v 0, GS k 73 n, DLE EOT 4", () => {
    expect(
      read([0x1b, 0x40, 0x1b, 0x61, 0x01, 0x41, 0x0a, 0x1d, 0x56, 0x42, 0x03, 0x10, 0x04, 0x04]).map((o) =>
        o.kind === 'command' ? [o.name, ...o.args] : [o.kind],
      ),
    ).toEqual([['initialize'], ['justification', 1], ['text'], ['lineFeed'], ['cut', 66, 3], ['realtimeStatus', 4]]);
    const raster = read([0x1d, 0x76, 0x30, 0x00, 0x01, 0x00, 0x02, 0x00, 0xff, 0x81]);
    expect(raster).toEqual([
      { kind: 'command', name: 'rasterImage', args: [0, 1, 2], data: Uint8Array.of(0xff, 0x81), realtime: false },
    ]);
    expect(read([0x1d, 0x6b, 73, 3, 0x7b, 0x42, 0x31])[0]).toMatchObject({ name: 'barcode', args: [73, 3] });
  });

  it('answers DLE EOT and GS r as the reference defines the bits (0xx1xx10; GS r bits 4 and 7 off)', () => {
    expect([1, 2, 3, 4].map((n) => realtimeAnswer(n, IDLE))).toEqual([0x12, 0x12, 0x12, 0x12]);
    expect(realtimeAnswer(1, { ...IDLE, online: false })).toBe(0x1a);
    expect(realtimeAnswer(2, { ...IDLE, coverOpen: true })).toBe(0x16);
    expect(realtimeAnswer(4, { ...IDLE, paperNearEnd: true, paperOut: true })).toBe(0x7e);
    expect(realtimeAnswer(5, IDLE)).toBeUndefined();
    expect(transmitStatusAnswer(49, { ...IDLE, paperNearEnd: true })).toBe(0x03);
    expect(transmitStatusAnswer(1, { ...IDLE, paperOut: true })).toBe(0x0c);
  });

  it("reads whatever the driver's encoder writes as the driver's decoder does, split anywhere", () => {
    const commands: [CommandName, number[], Uint8Array?][] = [
      ['initialize', []],
      ['printMode', [0x38]],
      ['characterSize', [0x11]],
      ['justification', [1]],
      ['codeTable', [3]],
      ['feedLines', [2]],
      ['cut', [1]],
      ['pulse', [0, 25, 250]],
      ['transmitStatus', [1]],
      ['barcode', [73, 4], Uint8Array.of(0x7b, 0x42, 0x31, 0x32)],
      ['symbol', [5], Uint8Array.of(49, 67, 6, 0, 0)],
    ];
    const stream = Uint8Array.from(
      commands.flatMap(([name, args, data]) => [...encodeCommand(name, args, data), 0x41, 0x42, 0x0a]),
    );
    const theirs = decodeEscPos(stream).map(seen);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 6 }), (cuts) => {
        const r = new EscPosReader();
        const ops: PrinterOp[] = [];
        let at = 0;
        for (const c of [...new Set(cuts)].sort((x, y) => x - y)) {
          ops.push(...r.push(stream.slice(at, c)));
          at = c;
        }
        ops.push(...r.push(stream.slice(at)), ...r.end());
        // text split by a chunk boundary comes in two pieces: one, as the whole-stream decoder has it
        const ours: Seen[] = [];
        for (const o of ops.map(seen)) if (!(o.kind === 'text' && ours.at(-1)?.kind === 'text')) ours.push(o);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 200 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeEscPos, EscPosDecoder, EscPosEncoder, type EscPosOp } from '../../../../drivers/printer/index.js';
import { findPrinterModel } from '../../../../tables/printers/index.js';
import { fcSeed } from '../../../helpers/escpos-sources.js';

const seed = fcSeed('printer');
const model = findPrinterModel('virtual-80')!;

function sizeOf(op: EscPosOp, bytes: Uint8Array): number {
  void bytes;
  return op.kind === 'text' || op.kind === 'unknown' || op.kind === 'truncated' ? op.bytes.length : -1;
}

function sample(): Uint8Array {
  return new EscPosEncoder(model)
    .initialize()
    .align('center')
    .bold(true)
    .size(2, 2)
    .line('Crédito à vista')
    .size(1, 1)
    .bold(false)
    .align('left')
    .barcode('123', 'code128')
    .qr('00020101021226', { size: 4 })
    .qr('RASTER', { raster: true, size: 2 })
    .drawer()
    .cut('full')
    .encode();
}

describe('EscPosDecoder (the inverse of the encoder)', () => {
  it('reads back every command the encoder wrote, in order, with its arguments and data', () => {
    const ops = decodeEscPos(sample());
    const names = ops.map((o) => (o.kind === 'command' ? o.name : o.kind));
    expect(names).toEqual([
      'initialize',
      'codeTable',
      'justification',
      'emphasized',
      'characterSize',
      'text',
      'lineFeed',
      'characterSize',
      'emphasized',
      'justification',
      'barcodeHeight',
      'barcodeWidth',
      'hriPosition',
      'barcode',
      'symbol',
      'symbol',
      'symbol',
      'symbol',
      'symbol',
      'rasterImage',
      'pulse',
      'feedLines',
      'cut',
    ]);
    const text = ops.find((o) => o.kind === 'text');
    expect(text && Buffer.from(text.bytes).toString('latin1')).toBe('Cr\x82dito \x85 vista');
    const store = ops.filter((o) => o.kind === 'command' && o.name === 'symbol')[3];
    expect(store?.kind === 'command' && Buffer.from(store.data!.slice(3)).toString()).toBe('00020101021226');
    const cut = ops.at(-1);
    expect(cut).toMatchObject({ kind: 'command', name: 'cut', args: [0] });
  });

  it('gives the same ops whatever the chunking (a command split across chunks waits for the rest)', () => {
    const bytes = sample();
    const whole = decodeEscPos(bytes).map((o) => JSON.stringify(o));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const d = new EscPosDecoder();
        const ops: EscPosOp[] = [];
        let from = 0;
        for (const p of [...points, bytes.length]) {
          ops.push(...d.push(bytes.slice(from, p)));
          from = p;
        }
        ops.push(...d.end());
        // Text runs may split where a chunk ends; join adjacent text before comparing.
        const joined: EscPosOp[] = [];
        for (const o of ops) {
          const last = joined.at(-1);
          if (o.kind === 'text' && last?.kind === 'text')
            joined[joined.length - 1] = { ...last, bytes: Buffer.concat([last.bytes, o.bytes]) };
          else joined.push(o);
        }
        expect(
          joined.map((o) => JSON.stringify({ ...o, ...(o.kind === 'text' ? { bytes: [...o.bytes] } : {}) })),
        ).toEqual(
          whole.map((s) => {
            const o = JSON.parse(s) as EscPosOp & { bytes?: Record<string, number> };
            return JSON.stringify(o.kind === 'text' ? { ...o, bytes: Object.values(o.bytes) } : o);
          }),
        );
      }),
      { numRuns: 1000, seed },
    );
  });

  it('never throws on arbitrary bytes, accounts for every byte, and always makes progress (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const ops = decodeEscPos(bytes, 4096);
        expect(ops.every((o) => o.offset >= 0 && o.offset <= bytes.length)).toBe(true);
        const offsets = ops.map((o) => o.offset);
        expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
        const plain = ops.filter((o) => sizeOf(o, bytes) >= 0).reduce((n, o) => n + sizeOf(o, bytes), 0);
        expect(plain).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 1000, seed },
    );
  });

  it('refuses a raster announcing more data than the limit instead of waiting for it', () => {
    const ops = decodeEscPos(Uint8Array.of(0x1d, 0x76, 0x30, 0x00, 0xff, 0xff, 0xff, 0xff, 0x41), 1 << 20);
    expect(ops[0]).toMatchObject({ kind: 'invalid', name: 'rasterImage' });
    expect(ops[1]).toMatchObject({ kind: 'text' });
  });

  it('skips unknown control sequences and reports them', () => {
    const ops = decodeEscPos(Uint8Array.of(0x1b, 0x7a, 0x41, 0x07, 0x42));
    expect(ops.map((o) => o.kind)).toEqual(['unknown', 'text', 'unknown', 'text']);
  });

  // No timing here (tests never fail on a timing): a decoder that re-read what it had read, or
  // stopped early, breaks the order or the coverage of the offsets instead.
  it('reads a 1 MB stream of noise to its end, each op after the one before', () => {
    const noise = new Uint8Array(1 << 20);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const ops = decodeEscPos(noise);
    const offsets = ops.map((o) => o.offset);
    expect(offsets[0]).toBe(0);
    expect(offsets.every((o, i) => i === 0 || o > offsets[i - 1]!)).toBe(true);
    const last = ops.at(-1)!;
    const lastEnd = 'bytes' in last ? last.offset + last.bytes.length : last.offset + 1;
    expect(lastEnd).toBeLessThanOrEqual(noise.length);
    expect(last.offset).toBeGreaterThan(noise.length - 4096);
  });
});

import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../src/core/errors/index.js';
import {
  buildPix,
  encodeMpm,
  parseMpm,
  parsePix,
  parseQr,
  type MpmInput,
  type PixInput,
} from '../../../src/qr/index.js';
import vectors from '../../vectors/qr/pix-automatico.json' with { type: 'json' };

/** pix-utils, the peer: reads a recurrence location from template 80 as `urlRec`. */
const peer = createRequire(import.meta.url)('pix-utils') as {
  parsePix(code: string): { type?: string; urlRec?: string; error?: boolean };
};

const RUNS = 1000;
function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}
const GUI = { id: '00', value: 'br.gov.bcb.pix' };
const REC = 'qr-h.sandbox.pix.bcb.gov.br/rest/api/rec/5ee5232ead29422396b44f5eb67180d6';

/** The recurrence-only published row's objects with 26 and the unreserved templates replaced. */
function variant(mai: MpmInput[], templates: MpmInput[]): string {
  const base = parseMpm(vectors.pix.find((r) => r.expect.composition === 'recurrence')!.text);
  const keep = base
    .filter((o) => o.id !== '26' && o.id !== '63' && Number(o.id) < 80)
    .map((o) =>
      o.children
        ? { id: o.id, children: o.children.map((c) => ({ id: c.id, value: c.value })) }
        : { id: o.id, value: o.value },
    );
  const objects: MpmInput[] = [
    ...keep.filter((o) => Number(o.id) < 26),
    { id: '26', children: mai },
    ...keep.filter((o) => Number(o.id) > 26),
    ...templates,
  ];
  return encodeMpm(objects);
}
const EDITS: Record<string, string> = {
  'key+url': variant(
    [GUI, { id: '01', value: 'fulano@example.com' }, { id: '25', value: 'psp.example.com/qr/v2/abc' }],
    [{ id: '80', children: [GUI, { id: '25', value: REC }] }],
  ),
  'no-recurrence': variant([GUI], []),
  'no-rec-url': variant([GUI], [{ id: '80', children: [GUI] }]),
  'two-rec': variant(
    [GUI],
    [
      { id: '80', children: [GUI, { id: '25', value: REC }] },
      { id: '81', children: [GUI, { id: '25', value: REC }] },
    ],
  ),
};

describe('Pix Automático and composite BR Codes (published)', () => {
  it.each(vectors.pix.map((r) => [r.source, r] as const))('parses %s', (_s, row) => {
    const pix = parsePix(row.text);
    expect(pix).toMatchObject(row.expect);
    expect(pix.crc16).toBe(row.crc);
    const q = parseQr(row.text);
    expect(q.model).toBe('pix');
    // the peer reads the same recurrence location
    expect(peer.parsePix(row.text).urlRec).toBe(row.expect.recurrence.url);
  });

  it.each(vectors.pix.filter((r) => 'build' in r).map((r) => [r.source, r] as const))(
    'builds byte for byte: %s',
    (_s, row) => {
      expect(buildPix((row as { build: PixInput }).build)).toBe(row.text);
    },
  );

  it('a code carrying only the recurrence is read (it was refused: "expected a Pix key (26.01) or a location URL (26.25)")', () => {
    const row = vectors.pix.find((r) => r.expect.composition === 'recurrence')!;
    expect(parsePix(row.text)).toMatchObject({ type: 'recurrence', recurrence: { url: row.expect.recurrence.url } });
  });

  it.each(vectors.invalid.rows)('refuses $why: $error', ({ edit, error }) => {
    const text = EDITS[edit]!;
    try {
      parsePix(text);
      expect.unreachable();
    } catch (e) {
      expect(isOmniposError(e, 'QR_INVALID')).toBe(true);
      expect((e as Error).message.startsWith(error)).toBe(true);
    }
  });

  it('leaves an unreserved template of another GUI alone', () => {
    const text = variant(
      [GUI],
      [
        { id: '80', children: [GUI, { id: '25', value: REC }] },
        {
          id: '81',
          children: [
            { id: '00', value: 'com.example.loyalty' },
            { id: '01', value: 'X1' },
          ],
        },
      ],
    );
    expect(parsePix(text)).toMatchObject({ composition: 'recurrence', recurrence: { templateId: '80', url: REC } });
  });

  it('buildPix refuses what parsePix refuses: a key with a url, an empty recurrence location, a template id outside 80-99', () => {
    const base = { merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' };
    expect(() => buildPix({ ...base, key: 'a@b.c', url: 'psp.example.com/x', recurrenceUrl: REC })).toThrow(
      '26: a Pix key (26.01) and a payment location (26.25) together',
    );
    expect(() => buildPix({ ...base, recurrenceUrl: '' })).toThrow('80.25: missing');
    expect(() => buildPix({ ...base, recurrenceUrl: REC, recurrenceTemplateId: '79' })).toThrow(
      '79: the recurrence template id must be 80 to 99',
    );
    expect(() => buildPix(base)).toThrow(
      '26: expected a Pix key (26.01), a location URL (26.25) or a Pix Automático recurrence template (80)',
    );
  });
});

describe('Pix Automático: properties', () => {
  const text = (min: number, max: number): fc.Arbitrary<string> =>
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789./-'), minLength: min, maxLength: max });
  const input = fc.record({
    payment: fc.constantFrom('none', 'key', 'url'),
    key: text(1, 36),
    url: text(1, 60),
    recurrenceUrl: fc.option(text(1, 70), { nil: undefined }),
    templateId: fc.integer({ min: 80, max: 99 }).map(String),
    merchantName: fc.stringMatching(/^[A-Z][A-Z ]{0,24}$/),
    merchantCity: fc.stringMatching(/^[A-Z][A-Z ]{0,14}$/),
    amount: fc.option(
      fc.integer({ min: 1, max: 9_999_999 }).map((c) => (c / 100).toFixed(2)),
      { nil: undefined },
    ),
  });

  it('build then parse keeps the payment and the recurrence; the peer reads template 80 alike; no payment and no recurrence is refused', () => {
    fc.assert(
      fc.property(input, (x) => {
        const pix: PixInput = {
          merchantName: x.merchantName,
          merchantCity: x.merchantCity,
          ...(x.payment === 'key' ? { key: x.key } : x.payment === 'url' ? { url: x.url } : {}),
          ...(x.recurrenceUrl !== undefined
            ? { recurrenceUrl: x.recurrenceUrl, recurrenceTemplateId: x.templateId }
            : {}),
          ...(x.amount !== undefined ? { amount: x.amount } : {}),
        };
        if (x.payment === 'none' && x.recurrenceUrl === undefined) {
          expect(() => buildPix(pix)).toThrow(expect.objectContaining({ code: 'QR_INVALID' }));
          return;
        }
        const code = buildPix(pix);
        const p = parsePix(code);
        const payment = x.payment === 'key' ? 'static' : x.payment === 'url' ? 'dynamic' : undefined;
        expect(p.composition).toBe(
          payment && x.recurrenceUrl !== undefined ? `${payment}+recurrence` : (payment ?? 'recurrence'),
        );
        expect(p.type).toBe(payment ?? 'recurrence');
        expect(p.key).toBe(x.payment === 'key' ? x.key : undefined);
        expect(p.url).toBe(x.payment === 'url' ? x.url : undefined);
        expect(p.recurrence).toEqual(
          x.recurrenceUrl === undefined ? undefined : { templateId: x.templateId, url: x.recurrenceUrl },
        );
        expect(p.transactionAmount).toBe(x.amount);
        if (x.recurrenceUrl !== undefined && x.templateId === '80')
          expect(peer.parsePix(code).urlRec).toBe(x.recurrenceUrl);
      }),
      { numRuns: RUNS, seed: seed('pix automatico round trip') },
    );
  });
});

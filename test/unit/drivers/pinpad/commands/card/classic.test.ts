/**
 * The driver's classic card commands against the specification's own examples (ABECS 2.12,
 * guilhermecabral05/abecs-rust protocolo_abecs_2_12.md: §3.6.1 GCR, §3.6.3 GOC, §3.6.4 FNC, §3.5.1
 * GTS; line numbers beside each), both directions, and the card-data rules on what GCR returns.
 */
import fc from 'fast-check';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { card, decodeResponse, isPinpadError } from '../../../../../../drivers/pinpad/index.js';
import { fcSeed } from '../../../../../helpers/fc-seed.js';

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const answer = (b: Buffer) => decodeResponse(Uint8Array.from(b));

/** protocolo_abecs_2_12.md lines 7541-7563 (hex as printed). */
const GCR_ANSWER_CHIP = Buffer.from(
  '47435230303033353230333030313032' +
    '32323030202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '33373534363439393939313037363939' +
    '39303D31393132323036323831323336' +
    '36393037373030303030202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20202020202020202020202020202020' +
    '20203136353436343939393931303736' +
    '3939393020202030304352454449544F' +
    '2020202020202020203030304C454520' +
    '5745494E524942202F20474544445920' +
    '20202020202031393132333130303030' +
    '30303030303030303030303030303030' +
    '30303030303030303030303030303030' +
    '303030303736303030',
  'hex',
);
/** protocolo_abecs_2_12.md lines 7612-7634 (hex as printed). */
const GCR_ANSWER_STRIPE = Buffer.from(
  '47435230303033353230303130303030' +
    '30303736423434343433333333323232' +
    '32313131315E544F4D20534157594552' +
    '5E313630383130313831323733363534' +
    '37363135323336343531373836323335' +
    '34383736313233373634353736313233' +
    '33373434343433333333323232323131' +
    '31313D31363038313031383132373336' +
    '35343736313534303930343434343333' +
    '333332323232313131313D3D31363038' +
    '31303138313237333635343736313532' +
    '33363435313738363233353438373631' +
    '32333736343537363132333D38333734' +
    '38323734373837323336383430303030' +
    '31393931202020202020202020202020' +
    '20203030202020202020202020202020' +
    '20202020202020303020202020202020' +
    '20202020202020202030303020202020' +
    '20202020202020202020202020202020' +
    '20202020202030303030303030303030' +
    '30303030303030303030303030303030' +
    '30303030303030303030303030303030' +
    '303030303030303030' +
    '',
  'hex',
);
/** protocolo_abecs_2_12.md lines 7973-7990 (hex as printed). */
const GOC_ANSWER = Buffer.from(
  '474F4330303031333032303130303030' +
    '30303030303030303030303030303030' +
    '30303030303030303030303030303030' +
    '30303030343138323032353830303946' +
    '32373031383039463236303837363544' +
    '43313338303744314534433839463336' +
    '30323030303639353035303031303030' +
    '30303030384630313035394633373034' +
    '3541373741434630303030' +
    '',
  'hex',
);
/** protocolo_abecs_2_12.md lines 8120-8128 (hex as printed). */
const FNC_ANSWER = Buffer.from(
  '464E4330303030393131303431383230' +
    '32353830303946323730313030394632' +
    '36303836394542413342453143433842' +
    '33384439463336303230303036393530' +
    '35303031303030303030303846303130' +
    '35394633373034354137374143463030' +
    '30303030' +
    '',
  'hex',
);

describe('GCR (§3.6.1)', () => {
  it('encodes the two command examples byte for byte (lines 7506-7520, 7593-7605)', () => {
    expect(
      latin1(
        card.GCR.encode({
          acquirer: '00',
          aidList: ['0214', '0222', '0217'],
          amount: 1000,
          date: '131207',
          time: '102355',
          tableVersion: '8765234568',
        }),
      ),
    ).toBe('GCR0520000000000' + '0010001312071023' + '5587652345680302' + '1402220217');
    expect(
      latin1(
        card.GCR.encode({
          acquirer: '00',
          applicationType: '99',
          amount: 2837,
          date: '140724',
          time: '113922',
          tableVersion: 'TABVER0918',
          contactless: false,
        }),
      ),
    ).toBe('GCR0410099000000' + '0028371407241139' + '22TABVER0918000');
    expect(latin1(card.GCR.encode({ again: true }))).toBe('GCR');
  });

  it('decodes the chip answer example (lines 7523-7560): masked PAN and tracks, the AID record, the clear track kept apart', () => {
    const r = card.GCR.decode(answer(GCR_ANSWER_CHIP), { again: true });
    expect(r.card).toMatchObject({
      cardType: 'chip',
      aidTables: [{ acquirer: '02', index: '22', applicationType: '01' }],
      maskedPan: '54649999****9990',
      expiry: '1912',
      label: 'CREDITO',
      cardholderName: 'LEE WEINRIB / GEDDY',
      panSequenceNumber: '00',
      issuerCountry: '076',
    });
    expect(r.card.track2).toBe('54649999****9990=1912206');
    expect(r.acquirerIndex).toBe('02');
    // the clear data never prints: not in JSON, not in inspect
    const shown = JSON.stringify(r) + inspect(r, { depth: 9 });
    expect(shown).not.toMatch(/5464999910769990/);
    expect(r.clear.packedTrack2()!.toString('hex').toUpperCase()).toBe(
      '5464999910769990D19122062812366907700FFFFFFFFFFF',
    );
    r.clear.wipe();
    expect(r.clear.hasTrack2).toBe(false);
  });

  it('decodes the stripe answer example (lines 7609-7640): fallback status, the PAN only masked', () => {
    const r = card.GCR.decode(answer(GCR_ANSWER_STRIPE), { again: true });
    expect(r.card.cardType).toBe('stripe');
    expect(r.card.iccStatus).toBe('fallback');
    expect(r.card.aidTables).toEqual([]);
    expect(r.card.maskedPan).toMatch(/^44443333\*+1111$/);
    expect(JSON.stringify(r)).not.toMatch(/4444333322221111/);
  });

  it('takes GCR_RUF1 as the table says (N29, 342 characters) and as both examples carry it (39, 352)', () => {
    const d = latin1(GCR_ANSWER_CHIP.subarray(9));
    const short = d.slice(0, 307) + d.slice(317);
    const r = card.decodeGcr(Buffer.from(short, 'latin1'));
    expect(r.card.issuerCountry).toBe('076');
    expect(() => card.decodeGcr(Buffer.from(d.slice(0, 340), 'latin1'))).toThrow(/GCR_CARDEXP/);
  });

  it('any bytes: a PinpadError or a result whose JSON holds no run of 13 digits (property)', () => {
    const head = latin1(GCR_ANSWER_CHIP.subarray(9));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          fc
            .tuple(fc.nat(351), fc.integer({ min: 0x20, max: 0x7e }))
            .map(([i, c]) => Buffer.from(head.slice(0, i) + String.fromCharCode(c) + head.slice(i + 1), 'latin1')),
        ),
        (b) => {
          try {
            const r = card.decodeGcr(Uint8Array.from(b));
            expect(card.holdsClearPan(JSON.stringify(r))).toBe(false);
          } catch (e) {
            expect(isPinpadError(e, 'PINPAD_PROTOCOL')).toBe(true);
          }
        },
      ),
      { numRuns: 1000, seed: fcSeed('GCR decoder') },
    );
  });
});

describe('GOC (§3.6.3) and FNC (§3.6.4)', () => {
  it('encodes the GOC example (lines 7931-7950) but for GOC_RUF1, which the table fixes at "0" and the example sends as "1"', () => {
    const ours = latin1(
      card.GOC.encode({
        amount: 1200,
        cashback: 200,
        noOfflineApproval: false,
        pinKeyIndex: 1,
        risk: { floorLimit: 5000, targetPercent: 20, threshold: 1000, maxTargetPercent: 80 },
        acquirerIndex: '03',
        tags: ['82', '9F27', '9F26', '9F36', '95', '8F', '9F37'],
      }),
    );
    const example =
      'GOC0860000000012' +
      '0000000000020000' +
      '1301000000000000' +
      '0000000000000000' +
      '0000100001388200' +
      '00003E8800000250' +
      '11829F279F269F36' +
      '958F9F37003000';
    expect(ours).toBe(example.slice(0, 32) + '0' + example.slice(33));
  });

  it('decodes the GOC answer example (lines 7971-7990): online, no PIN for online verification, the EMV data', () => {
    const r = card.GOC.decode(answer(GOC_ANSWER), {} as never);
    expect(r).toMatchObject({ decision: 'online', signature: false, pin: 'offline-verified' });
    expect(r.pinBlock).toBeUndefined();
    expect(Buffer.from(r.emvData!).toString('hex').toUpperCase().slice(0, 8)).toBe('82025800');
    expect(r.emvData!.length).toBe(41);
  });

  it('encodes the FNC example byte for byte (lines 8100-8116) and decodes its answer (lines 8118-8135)', () => {
    expect(
      latin1(
        card.FNC.encode({
          outcome: 'approved',
          arc: '00',
          emvData: Buffer.from('9108E64A2FE21FD88672', 'hex'),
          tags: ['82', '9F27', '9F26', '9F36', '95', '8F', '9F37'],
        }),
      ),
    ).toBe('FNC0300000010910' + '8E64A2FE21FD8867' + '2000025011829F27' + '9F269F36958F9F37');
    const r = card.FNC.decode(answer(FNC_ANSWER), {} as never);
    expect(r.decision).toBe('declined'); // "the card declines at the end"
    expect(r.emvData!.length).toBe(41);
    expect(latin1(card.FNC.encode({ outcome: 'no-communication', tags: [] }))).toBe('FNC010' + '1000000000' + '003000');
  });

  it('GTS example (lines 6776-6790) both ways', () => {
    expect(latin1(card.GTS.encode('02'))).toBe('GTS00202');
    expect(card.GTS.decode(answer(Buffer.from('GTS000010XEMVST0003', 'latin1')), '02')).toBe('XEMVST0003');
  });
});

describe('CKE (§3.3.3)', () => {
  it('encodes both command examples (lines 4339, 4378) and decodes the key answer example (F1, line 4383)', () => {
    expect(latin1(card.CKE.encode({ key: true, stripe: true, chip: 'insert', contactless: true }))).toBe('CKE0041111');
    expect(latin1(card.CKE.encode({ key: true }))).toBe('CKE003100');
    expect(card.CKE.decode(answer(Buffer.from('CKE000003004', 'latin1')), {})).toEqual({ event: 'key', key: '04' });
    expect(card.CKE.decode(answer(Buffer.from('CKE00000221', 'latin1')), {})).toEqual({ event: 'chip', present: true });
  });

  it('a swipe: the tracks masked, the clear ones apart and never printed', () => {
    const t1 = 'B4761739001010010^SANDBOX CARD/ZERO         ^30122010000000000';
    const t2 = '4761739001010010=30122010000000000';
    const body = `1${String(t1.length).padStart(2, '0')}${t1.padEnd(76)}${String(t2.length).padStart(2, '0')}${t2.padEnd(37)}000${''.padEnd(104)}`;
    const r = card.CKE.decode(answer(Buffer.from(`CKE000225${body}`, 'latin1')), {});
    expect(r).toMatchObject({ event: 'stripe', maskedPan: '47617390****0010', track2: '47617390****0010=3012201' });
    expect(JSON.stringify(r) + inspect(r)).not.toContain('4761739001010010');
  });
});

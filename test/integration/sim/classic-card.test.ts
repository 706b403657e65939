/**
 * The virtual pinpad's classic card commands (GCR, GOC, FNC, GTS, CKE) fed the specification's own
 * command examples byte for byte over real TCP (ABECS 2.12, guilhermecabral05/abecs-rust
 * protocolo_abecs_2_12.md: §3.6.1 GCR examples lines 7500-7540 and 7593-7605, §3.6.3 GOC example
 * lines 7931-7950, §3.6.4 FNC example lines 8100-8116, §3.5.1 GTS example line 6776, §3.3.3 CKE
 * examples lines 4339 and 4378), then checked against the response layouts of the same sections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../drivers/pinpad/index.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { rawTerminal, text } from './wire-client.js';
import { useVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const packet = (s: string): Uint8Array => encodeFrame(Uint8Array.from(Buffer.from(s, 'latin1')));

// §3.6.1 example 2: all networks ("00"), APPTYPE "99", R$ 28,37, tables "TABVER0918", no list, CTLS off
const GCR_EXAMPLE_2 = 'GCR0410099000000' + '0028371407241139' + '22TABVER0918000';
// §3.6.1 example 1: network "00", list of three records 0214 0222 0217, CTLS on by omission
const GCR_EXAMPLE_1 = 'GCR0520000000000' + '0010001312071023' + '5587652345680302' + '1402220217';
// §3.6.3 example (its 16-character lines as printed): R$ 12,00, cashback 2,00, DUKPT:TDES:PIN (method 3) slot 01, risk management, tags 82 9F27 9F26 9F36 95 8F 9F37
const GOC_EXAMPLE =
  'GOC0860000000012' +
  '0000000000020000' +
  '1301000000000000' +
  '0000000000000000' +
  '0000100001388200' +
  '00003E8800000250' +
  '11829F279F269F36' +
  '958F9F37003000';
// §3.6.4 example: host answered (ARC "00") with issuer authentication data 91 08 E64A2FE21FD88672, same tag list
const FNC_EXAMPLE = 'FNC0300000010910' + '8E64A2FE21FD8867' + '2000025011829F27' + '9F269F36958F9F37';

describe('the virtual pinpad answers the classic card commands (§3.6, §3.5.1, §3.3.3)', () => {
  const sim = useVirtualPinpad({ typingMs: null });
  let t: Awaited<ReturnType<typeof rawTerminal>>;
  beforeAll(async () => {
    t = await rawTerminal(sim.port);
  });
  afterAll(() => t.close());

  /** Sends a command, returns the answer (NTM notifications collected apart). */
  async function exchange(cmd: string): Promise<{ answer: string; ntm: string[] }> {
    const from = t.events.length;
    t.send(packet(cmd));
    expect(text((await t.next(from)).e)).toBe('<control 6>');
    const ntm: string[] = [];
    for (let i = from + 1; ; i++) {
      const a = text((await t.next(i)).e);
      if (!a.startsWith('NTM')) return { answer: a, ntm };
      ntm.push(a);
    }
  }
  const deck = () => cardSim(sim.engine.state).deck;

  it('GCR example 2 reads a swiped card whatever the table version (§6.8.1.2 checks it for an inserted chip only): fixed layout, tracks in clear', async () => {
    const card = TEST_CARDS.find((c) => c.lastDigitOutcome === 0 && !c.failure)!;
    expect(deck().choose({ pan: card.pan, via: 'stripe' }).ok).toBe(true);
    const { answer } = await exchange(GCR_EXAMPLE_2);
    expect(answer.slice(0, 9)).toBe('GCR000342');
    const d = answer.slice(9);
    expect(d.slice(0, 2)).toBe('00'); // GCR_CARDTYPE magnetic
    expect(d.slice(3, 9)).toBe('000000'); // no AID record for a stripe
    const t1len = Number(d.slice(9, 11));
    expect(d.slice(11, 11 + t1len)).toMatch(/^B\d+\^/);
    const t2 = d.slice(89, 89 + Number(d.slice(87, 89)));
    expect(t2).toBe(card.track2);
    expect(d.slice(126, 129)).toBe('000'); // no track 3
    expect(d.slice(233, 235)).toBe(String(card.pan.length));
    expect(d.slice(339, 342)).toBe('000'); // GCR_ACQRDLEN: network 00
  });

  it('a chip card through GCR, the GOC example (PIN online under DUKPT) and the FNC example', async () => {
    const card = TEST_CARDS.find((c) => c.lastDigitOutcome === 0 && !c.failure && c.serviceCode.startsWith('2'))!;
    expect(deck().choose({ pan: card.pan, via: 'chip', pin: 'right' }).ok).toBe(true);
    const versions = cardSim(sim.engine.state).tables.versions();
    const net = Object.keys(versions).find((k) => k !== '00')!;
    const gcr = `GCR041${net}99000000001200251125120000${versions[net]!.padEnd(10, ' ')}000`;
    const r = await exchange(gcr);
    expect(r.answer.slice(0, 6)).toBe('GCR000');
    const d = r.answer.slice(9);
    expect(d.slice(0, 3)).toBe('030'); // ICC EMV, chip read OK
    expect(d.slice(5, 7)).toBe(net);
    expect(d.slice(235, 235 + card.pan.length)).toBe(card.pan);
    const goc = await exchange(GOC_EXAMPLE);
    expect(goc.answer.slice(0, 6), goc.answer).toBe('GOC000');
    expect(goc.ntm.length).toBeGreaterThan(0); // the PIN prompt
    expect(goc.answer.slice(0, 6)).toBe('GOC000');
    const g = goc.answer.slice(9);
    expect(g.slice(0, 1)).toBe('2'); // online
    expect(g.slice(5, 6)).toBe('1'); // PIN captured for online verification
    expect(g.slice(6, 22)).toMatch(/^[0-9A-F]{16}$/);
    expect(g.slice(22, 42)).toMatch(/^FFFFF/);
    const emvLen = Number(g.slice(42, 45));
    expect(g.length).toBe(45 + 2 * emvLen + 3);
    expect(g.slice(45, 47)).toBe('82'); // the first tag asked
    const fnc = await exchange(FNC_EXAMPLE);
    expect(fnc.answer.slice(0, 6)).toBe('FNC000');
    expect(fnc.answer.slice(9, 10)).toBe('0'); // approved
    expect((await exchange(FNC_EXAMPLE)).answer).toBe('FNC010'); // once
  });

  it('GCR example 1 with a chip inserted: ST_TABVERDIF (other version, §6.8.1.2); "GCR" alone (§6.8.2) then finds none of its records', async () => {
    const card = TEST_CARDS.find((c) => c.lastDigitOutcome === 0 && !c.failure && c.serviceCode.startsWith('2'))!;
    deck().choose({ pan: card.pan, via: 'chip' });
    expect((await exchange(GCR_EXAMPLE_1)).answer).toBe('GCR020');
    expect((await exchange('GCR')).answer).toBe('GCR070');
  });

  it('a contactless card is read whatever GCR_TABVER says (§6.8.1.3, §7.4)', async () => {
    const card = TEST_CARDS.find((c) => c.name.startsWith('mastercard credit, chip'))!;
    deck().choose({ pan: card.pan, via: 'contactless' });
    const r = await exchange('GCR041' + '0099000000001200251125120000' + 'NOTTHEONE0' + '001');
    expect(r.answer.slice(0, 11)).toBe('GCR00034206');
  });

  it('refuses malformed classic commands (§6.2.2: ST_INVPARM) and out-of-order ones (ST_INVCALL)', async () => {
    expect((await exchange('GCR039' + GCR_EXAMPLE_2.slice(6, 45))).answer).toBe('GCR011'); // a field short
    expect((await exchange('GCR041' + GCR_EXAMPLE_2.slice(6, 46) + '2')).answer).toBe('GCR011'); // GCR_CTLSON "2"
    expect((await exchange('GCR041' + '0099000000002837140724113922TABVER0918010')).answer).toBe('GCR011'); // a list count without a list
    expect((await exchange('GCR')).answer).toBe('GCR010'); // nothing pending
    expect((await exchange('RMC032' + ' '.repeat(32))).answer).toBe('RMC000'); // no card held from here
    expect((await exchange(GOC_EXAMPLE)).answer).toBe('GOC010');
    expect((await exchange(FNC_EXAMPLE)).answer).toBe('FNC010');
    expect((await exchange('GTS0030AB')).answer).toBe('GTS011');
    expect((await exchange('CKE0041131')).answer).toBe('CKE011');
  });

  it('GTS example (network 02) answers a 10-character version; CKE examples (a swipe; a key)', async () => {
    const gts = await exchange('GTS00202');
    expect(gts.answer).toMatch(/^GTS000010.{10}$/);
    const card = TEST_CARDS.find((c) => c.lastDigitOutcome === 0 && !c.failure)!;
    deck().choose({ pan: card.pan, via: 'stripe' });
    const swipe = await exchange('CKE0041111');
    expect(swipe.answer.slice(0, 10)).toBe('CKE0002251');
    expect(swipe.answer.length).toBe(9 + 225);
    deck().choose({ action: 'cancel' });
    expect((await exchange('CKE003100')).answer).toBe('CKE000003013');
  });
});

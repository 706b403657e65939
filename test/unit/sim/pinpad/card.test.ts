import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CardDeck, SimDukpt, SimTables, packTrack } from '../../../../src/sim/pinpad/card/index.js';
import { pinMatches, readCard } from '../../../../src/sandbox/card.js';
import { TEST_CARDS } from '../../../../tables/test-cards.js';
import records from '../../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };
import ex from '../../../vectors/pinpad-card/abecs-card-examples.json' with { type: 'json' };
import { fcSeed } from '../../../helpers/fc-seed.js';

describe('the virtual pinpad encrypts what the sandbox host decrypts (property over the deck)', () => {
  it('track 2 under the DUKPT data key (CBC, random IV) and the PIN block under the PIN key', () => {
    const dukpt = new SimDukpt();
    fc.assert(
      fc.property(
        fc.constantFrom(...TEST_CARDS),
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        fc.stringMatching(/^\d{4,6}$/),
        (c, iv, typed) => {
          const { ksn, out } = dukpt.encryptData([packTrack(c.track2)], iv);
          const ivHex = Buffer.from(iv).toString('hex').toUpperCase();
          const node = {
            InputMode: 'MagStripe',
            TrackTwoData: out[0]!.toString('hex').toUpperCase(),
            EncryptedCardData: { EncryptionType: 'Dukpt3DesCBC', InitializationVector: ivHex, TrackTwoDataKSN: ksn },
          };
          const read = readCard('CreditCard', node);
          expect(read.pan).toBe(c.pan);
          expect(read.expiry).toBe(c.expiry);
          const pin = dukpt.encryptPin(typed, c.pan);
          expect(
            pinMatches('CreditCard.PinBlock', { EncryptedPinBlock: pin.block, KsnIdentification: pin.ksn }, read),
          ).toBe(typed === c.pin);
          expect(
            pinMatches(
              'CreditCard.PinBlock',
              {
                EncryptedPinBlock: dukpt.encryptPin(c.pin, c.pan).block,
                KsnIdentification: dukpt.encryptPin(c.pin, c.pan).ksn,
              },
              read,
            ),
          ).toBe(false); // block and KSN of different uses do not mix
        },
      ),
      { numRuns: 1000, seed: fcSeed('sim DUKPT → sandbox') },
    );
  });

  it('each use moves the KSN counter on', () => {
    const d = new SimDukpt();
    const a = d.encryptData([packTrack('1234')], new Uint8Array(8)).ksn;
    const b = d.encryptData([packTrack('1234')], new Uint8Array(8)).ksn;
    expect(a).not.toBe(b);
    expect(a.slice(0, 10)).toBe('FFFFF03033');
  });
});

describe('the virtual pinpad’s tables (§3.5, §6.7)', () => {
  it('keeps a load apart until TLE; TLR records of another network and invalid ones are ignored', () => {
    const t = new SimTables(false);
    expect(t.add(records.aid340.record)).toBe(false); // no TLI
    expect(t.begin('02', 'V1')).toBe(true);
    expect(t.add(records.aid340.record + records.aid314.record + ex.aid284.record + '0401XX')).toBe(true); // 314 is network 17, 284 network 23
    expect(t.aidRecords('A0000000041010')).toEqual([]);
    expect(t.commit()).toBe(true);
    expect(t.aidRecords('A0000000041010').map((r) => r.acquirer + r.index)).toEqual(['02MC']);
    expect(t.version('02')).toBe('V1');
    expect(t.begin('02', 'V1')).toBe(false);
    t.abort();
    expect(t.commit()).toBe(false);
  });

  it('a network load discards the "00" records (§6.7.3: TAB_ACQ other than TLI_ACQIDX, which is not "00")', () => {
    const t = new SimTables(false);
    const merged = `${records.capk.record.slice(0, 4)}00${records.capk.record.slice(6)}`; // the same CA key under "00"
    t.begin('01', 'V1');
    t.add(records.capk.record + merged);
    t.commit();
    const held = t['byNetwork'].get('01')?.records.map((r) => r.acquirer);
    expect(held).toEqual(['01']);
    expect(t['byNetwork'].has('00')).toBe(false);
  });

  it('a load for all networks ("00") takes the three §4.1.1 example records under their networks', () => {
    const t = new SimTables(false);
    t.begin('00', 'ALL0000001');
    t.add(records.aid340.record + records.aid314.record + ex.aid284.record);
    t.commit();
    expect(
      t
        .aidRecords('A0000000041010')
        .map((r) => r.acquirer)
        .sort(),
    ).toEqual(['02', '17']);
    expect(t.aidRecords('A0000000032010').map((r) => r.acquirer)).toEqual(['23']);
    expect(t.versions()).toMatchObject({
      '00': 'ALL0000001',
      '02': 'ALL0000001',
      '17': 'ALL0000001',
      '23': 'ALL0000001',
    });
  });

  it('leaves the factory with the sandbox AID records under version 0000000000', () => {
    const t = new SimTables();
    expect(t.version('03')).toBe('0000000000');
    expect(t.aidRecords('A0000000031010').length).toBeGreaterThan(0);
  });
});

describe('the card deck', () => {
  it('picks by last digit, PAN or name; refuses an interface the card lacks; describes with a masked PAN', () => {
    const d = new CardDeck();
    expect(d.choose({ lastDigit: 2 })).toMatchObject({ ok: true });
    expect(d.describe()).toContain('476173…0052');
    expect(d.choose({ name: 'elo', via: 'contactless' })).toMatchObject({ ok: false });
    expect(d.choose({ pan: '0000' })).toMatchObject({ ok: false });
    expect(d.choose({ action: 'cancel' })).toMatchObject({ ok: true, presented: 'the customer cancels' });
    for (const c of TEST_CARDS) {
      d.choose({ pan: c.pan });
      expect(d.describe()).not.toContain(c.pan);
    }
  });
});

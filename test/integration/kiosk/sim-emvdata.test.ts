import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, isPinpadError } from '../../../drivers/pinpad/index.js';
import { decodeTlv } from '../../../src/emv/index.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { now, startRig, type Rig } from '../../helpers/pinpad-rig.js';

/**
 * The virtual pinpad honours SPE_EMVDATA (ABECS GCX and GOX: TLV over the AID record's terminal
 * data), driven by the real driver over a pseudo-terminal: a kiosk's 9F35/9F33 come back in
 * PP_EMVDATA instead of the record's; a field that is not TLV is refused (ST_INVPARM, 11).
 */
const KIOSK = Buffer.from('9F3501249F3303E0D8C8', 'hex');
const value = (b: Uint8Array | undefined, t: string): string | undefined => {
  const o = b ? decodeTlv(b).find((x) => x.tag === t) : undefined;
  return o ? Buffer.from(o.value).toString('hex').toUpperCase() : undefined;
};

describe.skipIf(!HAS_SOCAT)('SPE_EMVDATA on the virtual pinpad', () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig();
  }, 20_000);
  afterAll(async () => {
    await rig?.stop();
  });

  async function chipRead(emvData?: Uint8Array): Promise<{ gcx: card.GcxResult; gox: card.GoxResult }> {
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
    const gcx = await rig.pinpad.run(card.GCX, {
      amount: 1000,
      ...now(),
      acquirer: '03',
      contactless: false,
      tags: ['9F35', '9F33'],
      ...(emvData ? { emvData } : {}),
    });
    const gox = await rig.pinpad.run(card.GOX, {
      acquirer: gcx.aidTables[0]!.acquirer,
      amount: 1000,
      pinKeyIndex: 1,
      tags: ['9F35', '9F33', '9F34'],
      ...(emvData ? { emvData } : {}),
    });
    await rig.pinpad.run(card.FCX, { outcome: 'no-communication', tags: ['95'] }).catch(() => undefined);
    return { gcx, gox };
  }

  it('a kiosk’s 9F35 24 and 9F33 E0D8C8 in GCX and GOX come back in PP_EMVDATA; the card still verifies the PIN online (42 03 first)', async () => {
    const { gcx, gox } = await chipRead(KIOSK);
    expect(value(gcx.emvData, '9F35')).toBe('24');
    expect(value(gox.emvData, '9F35')).toBe('24');
    expect(value(gox.emvData, '9F33')).toBe('E0D8C8');
    expect(value(gox.emvData, '9F34')).toBe('420300');
    expect(gox.pin).toBe('online');
    expect(gox.signature).toBe(false);
  });

  it('without it, GOX says the AID record’s: 22 and E0F0C8', async () => {
    const { gox } = await chipRead();
    expect(value(gox.emvData, '9F35')).toBe('22');
    expect(value(gox.emvData, '9F33')).toBe('E0F0C8');
  });

  it('SPE_EMVDATA that is not TLV: GCX answers ST_INVPARM (11)', async () => {
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
    const e = await rig.pinpad
      .run(card.GCX, {
        amount: 1000,
        ...now(),
        acquirer: '03',
        contactless: false,
        emvData: Buffer.from('9F3505', 'hex'),
      })
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    expect(isPinpadError(e) && e.code === 'PINPAD_STATUS' ? e.context.status : e).toBe(11);
  });
});

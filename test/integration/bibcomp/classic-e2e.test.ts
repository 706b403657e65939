/**
 * Card sales through the daemon with a pinpad that answers only the classic card commands: a serial
 * pinpad (the virtual pinpad `--classic` behind a pty). It cannot have a track encrypted under the
 * DUKPT data key (an obsolete pinpad takes no Abecs command, EBX included, ABECS 2.20 §3.2.2; GCR gives
 * the track in clear, §3.6.1): card sales are refused by name, the daemon stays up, and the journal,
 * database and logs hold no clear card data. (A pinpad behind a BibComp library: e2e.test.ts beside
 * this file.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { startE2e, type E2e } from '../../helpers/e2e.js';
import { clearSecrets, hostSale, sell } from '../../helpers/sale-kit.js';
import { HAS_SOCAT } from '../../helpers/socat.js';

const received = async (e: E2e): Promise<string[]> => (await e.sim.control({ cmd: 'state' })).received as string[];

describe.skipIf(!HAS_SOCAT)('the sale suite on the classic serial path', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await startE2e({ simArgs: ['--classic'] });
  }, 90_000);
  afterAll(async () => {
    await e?.stop();
  });

  it('a card sale is refused by name before any card is asked: no EBX probed, no GCR, nothing at the host', async () => {
    const s = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1000, method: 'credit' }, 60_000);
    expect(s.view.status).not.toBe('confirmed');
    expect(s.host).toBeUndefined();
    expect(await hostSale(e, s.merchantOrderId)).toBeUndefined();
    expect(String(e.journal.get(s.id)?.data.reason)).toMatch(/no Abecs command.*GCR gives the track in clear/);
    const r = await received(e);
    for (const id of ['EBX', 'GCR', 'GCX', 'GOC', 'GIX']) expect(r).not.toContain(id);
    expect((await e.api('GET', `/v1/payments/${s.id}`)).status).toBe(200);
  }, 90_000);

  it('the journal, the database and the logs hold no clear card data nor PIN blocks', () => {
    expect(scanForCardData(e.stateDir, clearSecrets())).toEqual([]);
    expect(scanForCardData(e.stateDir, ['"TrackTwoData"', 'EncryptedPinBlock', '"PinBlock"', '"CardNumber"'])).toEqual(
      [],
    );
  });
});

import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTlv } from '../../../src/emv/index.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';

/**
 * The kiosk's EMV terminal settings end to end: a daemon with `terminal.mode: unattended` sends
 * SPE_EMVDATA to the virtual pinpad, whose GOX answers with the kiosk's 9F35 and 9F33, and the
 * sale's EmvData that reaches the sandbox — read off the wire by an interceptor on the daemon's
 * acquirer dispatcher — carries them; an attended daemon's carries the counter's (the AID records').
 */
interface Running extends TestDaemon {
  bodies: string[];
}

/** Records every request body the daemon sends to the acquirer. */
function tap(bodies: string[]): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    if (typeof opts.body === 'string') bodies.push(opts.body);
    return dispatch(opts, handler);
  };
}

async function start(mode: 'attended' | 'unattended'): Promise<Running> {
  const bodies: string[] = [];
  const t = await startTestDaemon({
    prefix: `omnipos-kiosk-emv-${mode}-`,
    env: { OMNIPOS_TERMINAL__MODE: mode },
    deps: { acquirerInterceptors: [tap(bodies)] },
  });
  return Object.assign(t, { bodies });
}

/** A chip credit sale (the first card approving, PIN right), without a receipt; the EmvData of the sale the sandbox received, as tag → hex. */
async function chipSale(
  r: Running,
  amount: number,
): Promise<{ emv: Record<string, string>; auth: unknown; state: string }> {
  const sel = cardSim(r.pinpad.state).deck.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
  if (!sel.ok) throw new Error(sel.error);
  const before = r.bodies.length;
  const res = await request(`${r.apiUrl}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${r.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, method: 'credit', receipt: false }),
  });
  const created = (await res.body.json()) as { id: number };
  expect(res.statusCode, JSON.stringify(created)).toBe(202);
  let state = '';
  for (let i = 0; i < 400; i++) {
    state = r.journal.get(created.id)!.state;
    if (['confirmed', 'approved', 'declined', 'failed', 'undone', 'aborted'].includes(state) && !r.busy) break;
    await new Promise((x) => setTimeout(x, 25));
  }
  type Card = { EmvData?: string; AuthenticationMethod?: string };
  const cards = r.bodies
    .slice(before)
    .map((b) => JSON.parse(b) as { Payment?: { Amount?: number } & Record<string, unknown> })
    .filter((b) => b.Payment?.Amount === amount)
    .flatMap((b) =>
      Object.values(b.Payment!).filter(
        (v): v is Card => typeof v === 'object' && v !== null && typeof (v as Card).EmvData === 'string',
      ),
    );
  expect(cards.length, `the sale request with EmvData (${state})`).toBeGreaterThan(0);
  const emv: Record<string, string> = {};
  for (const o of decodeTlv(cards[0]!.EmvData!)) emv[o.tag] = Buffer.from(o.value).toString('hex').toUpperCase();
  return { emv, auth: cards[0]!.AuthenticationMethod, state };
}

let kiosk: Running;
let counter: Running;
beforeAll(async () => {
  [kiosk, counter] = await Promise.all([start('unattended'), start('attended')]);
}, 60_000);
afterAll(async () => {
  for (const r of [kiosk, counter]) await r?.stop();
});

describe('the kiosk tells the card it is unattended and takes no signature (EMV Book 4 A1, A2)', () => {
  it('an unattended daemon’s chip sale: the EmvData the sandbox receives carries 9F35 = 24 and 9F33 without the signature bit', async () => {
    const { emv, state, auth } = await chipSale(kiosk, 1000);
    expect(state).toBe('confirmed');
    expect(emv['9F35']).toBe('24');
    // the sandbox AID records say E0F0C8; byte 2 b6 (signature, paper) cleared, b4 (no CVM required) set: F0 → D8
    expect(emv['9F33']).toBe('E0D8C8');
    expect(Number.parseInt(emv['9F33']!.slice(2, 4), 16) & 0x20).toBe(0);
    // the test card's CVM list starts with enciphered PIN online (42 03): still online PIN
    expect(emv['9F34']).toBe('420300');
    expect(auth).toBe('OnlineAuthentication');
  }, 30_000);

  it('an attended daemon’s chip sale carries the counter’s values: the AID records’ 22 and E0F0C8', async () => {
    const { emv, state } = await chipSale(counter, 2000);
    expect(state).toMatch(/^(approved|confirmed)$/);
    expect(emv['9F35']).toBe('22');
    expect(emv['9F33']).toBe('E0F0C8');
  }, 30_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GCD_PROMPTS } from '../../../src/sim/pinpad/spec/gcd-messages.js';
import { openEvents, startTestDaemon, type Sse } from '../../helpers/daemon.js';

/**
 * The pinpad's prompts of a phone order relayed on the event stream (`GET /v1/events`): while the card is
 * typed, each field the pinpad asks for is an event of kind `cnp`, type `prompt` (checked against the events
 * document by the contract hook), carrying the pinpad's text and never a digit typed. A real daemon on the
 * embedded default, the virtual pinpad taking the keys (GCD).
 */
type Daemon = Awaited<ReturnType<typeof startTestDaemon>>;
type Events = Awaited<ReturnType<typeof openEvents>>;
type Event = Record<string, unknown>;

const CARD = { number: '4111111111111111', month: '07', year: '2031', code: '918' };
/** What no event may hold: the number, the expiry as typed and sent, the code as a JSON value. */
const SECRETS = [CARD.number, `${CARD.month}/${CARD.year}`, `"${CARD.code}"`, `${CARD.month}${CARD.year}`];

let t: Daemon;
let stream: Events;
beforeAll(async () => {
  t = await startTestDaemon({ env: { OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' } });
  stream = await openEvents(t.apiUrl, t.token);
}, 120_000);
afterAll(async () => {
  stream?.close();
  await t?.stop();
});

/** The events of the stream until `last` says stop (each event's raw `data:` kept for the scan). */
async function eventsUntil(last: (e: Event) => boolean): Promise<{ events: Event[]; raw: string[] }> {
  const events: Event[] = [];
  const raw: string[] = [];
  for (;;) {
    const block: Sse = await stream.next(20_000);
    if ('comment' in block) continue;
    raw.push(block.data);
    const e = JSON.parse(block.data) as Event;
    events.push(e);
    if (last(e)) return { events, raw };
  }
}

const post = (body: unknown, key: string) =>
  fetch(`${t.apiUrl}/v1/card-not-present/sales`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Event }));

describe("a phone order's prompts on the event stream", () => {
  it('number, month, year, security code, in order, before the sale is journaled; no digit in any event', async () => {
    for (const k of [CARD.number, CARD.month, CARD.year, CARD.code]) t.pinpad.type(k);
    const created = await post({ amount: 1990, holder: 'ANA SILVA' }, 'typing-1');
    expect(created.status).toBe(202);
    const { events, raw } = await eventsUntil(
      (e) => e.type === 'state' && e.id === created.body.id && e.state !== 'sending',
    );
    const prompts = events.filter((e) => e.type === 'prompt');
    expect(prompts.map((e) => e.prompt)).toEqual(['card-number', 'expiry-month', 'expiry-year', 'security-code']);
    // The pinpad's own texts: the virtual pinpad's transcription of the fixed table (ABECS 2.20 §3.3.8).
    expect(prompts.map((e) => e.text)).toEqual([0x32, 0x13, 0x15, 0x0c].map((i) => GCD_PROMPTS.get(i)));
    for (const p of prompts) expect(p).toMatchObject({ kind: 'cnp', id: -1, idempotencyKey: 'typing-1' });
    // Told before the row opened: every prompt precedes the sale's first state.
    const firstState = events.findIndex((e) => e.type === 'state' && e.id === created.body.id);
    expect(events.indexOf(prompts.at(-1)!)).toBeLessThan(firstState);
    expect(events[firstState]).toMatchObject({ kind: 'cnp', state: 'sending' });
    for (const s of SECRETS) expect(raw.join('\n')).not.toContain(s);
  });

  it('the CANCEL key after the number prompt: one prompt, no sale, 409 CNP_TYPING_CANCELLED', async () => {
    t.pinpad.type('\x18');
    const created = await post({ amount: 1990, holder: 'ANA SILVA' }, 'typing-2');
    expect(created).toMatchObject({ status: 409, body: { error: { code: 'CNP_TYPING_CANCELLED' } } });
    const { events } = await eventsUntil((e) => e.type === 'prompt' && e.idempotencyKey === 'typing-2');
    expect(events.at(-1)).toMatchObject({ kind: 'cnp', prompt: 'card-number', id: -1 });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { GcdRequest, PinpadNotification } from '../../../drivers/pinpad/index.js';
import { gcdDeadlineMs, type CardPinpad } from '../../../src/adapters/pinpad-card-kit.js';
import { readTypedCard } from '../../../src/adapters/pinpad-card-typed.js';
import { CNP_PROMPTS, PinpadTypedCardReader } from '../../../src/adapters/pinpad-cnp-card.js';
import type { VirtualPinpadOptions } from '../../../src/sim/pinpad/index.js';
import { GCD_PROMPTS } from '../../../src/sim/pinpad/spec/gcd-messages.js';
import { connectPinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * The card of a phone order typed on the virtual pinpad (GCD, ABECS 2.20 §3.3.8): the prompts the
 * pinpad shows are its own reading of the specification's fixed table (src/sim/pinpad/spec/), not ours.
 */
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(sim: VirtualPinpadOptions = {}) {
  const virtual = await startVirtualPinpad({ typingMs: null, ...sim }, cleanup);
  const pinpad = await connectPinpad({ port: virtual.port }, {}, cleanup);
  const shown: string[] = [];
  // The pinpad lays each prompt out on its display's lines: compared as one line.
  pinpad.on('notification', (n: PinpadNotification) => shown.push(n.text.replace(/\n/g, ' ')));
  return { virtual, pinpad, shown };
}

describe('a card not present typed on the pinpad (GCD)', () => {
  it('asks the number, the month, the 4-digit year and the security code with the fixed prompts', async () => {
    const { virtual, pinpad, shown } = await setup();
    for (const k of ['4111111111111111', '07', '2031', '918']) virtual.engine.type(k);
    const typed = await new PinpadTypedCardReader(pinpad).read();
    // The masked number is made where the card is read: first 6 and last 4 (PCI DSS 3.4).
    expect(typed).toEqual({
      number: '4111111111111111',
      maskedNumber: '411111******1111',
      expiry: '07/2031',
      securityCode: '918',
    });
    // The specification's texts for the indexes we send (§3.3.8 table, as the virtual pinpad transcribes it).
    expect(shown).toEqual([
      'DIGITE NÚMERO DO CARTÃO',
      'DIGITE O MÊS (MM)',
      'DIGITE O ANO (AAAA)',
      'DIGITE CÓDIGO DE SEGURANÇA',
    ]);
    expect(Object.values(CNP_PROMPTS).map((i) => GCD_PROMPTS.get(i))).toEqual(shown);
  });

  it('an empty security code: the card has none', async () => {
    const { virtual, pinpad } = await setup();
    for (const k of ['4111111111111111', '12', '2030', '']) virtual.engine.type(k);
    expect(await new PinpadTypedCardReader(pinpad).read()).toEqual({
      number: '4111111111111111',
      maskedNumber: '411111******1111',
      expiry: '12/2030',
    });
  });

  it('a wrong check digit is refused before the expiry is asked', async () => {
    const { virtual, pinpad, shown } = await setup();
    virtual.engine.type('4111111111111112');
    await expect(new PinpadTypedCardReader(pinpad).read()).rejects.toMatchObject({
      code: 'CNP_CARD_REFUSED',
      context: { field: 'number' },
    });
    expect(shown).toEqual(['DIGITE NÚMERO DO CARTÃO']);
  });

  it('a month that is not one is refused', async () => {
    const { virtual, pinpad } = await setup();
    for (const k of ['4111111111111111', '13', '2030']) virtual.engine.type(k);
    await expect(new PinpadTypedCardReader(pinpad).read()).rejects.toMatchObject({
      code: 'CNP_CARD_REFUSED',
      context: { field: 'expiry' },
    });
  });

  it('the CANCEL key, the prompt timing out and an aborted request are CNP_TYPING_CANCELLED', async () => {
    const { virtual, pinpad } = await setup();
    virtual.engine.type('\x18');
    await expect(new PinpadTypedCardReader(pinpad).read()).rejects.toMatchObject({
      code: 'CNP_TYPING_CANCELLED',
      context: { by: 'customer' },
    });
    // Nothing typed for SPE_TIMEOUT (1 s): the pinpad answers ST_TIMEOUT.
    await expect(new PinpadTypedCardReader(pinpad, { timeoutS: 1 }).read()).rejects.toMatchObject({
      code: 'CNP_TYPING_CANCELLED',
      context: { by: 'timeout' },
    });
    const ac = new AbortController();
    const reading = new PinpadTypedCardReader(pinpad).read(ac.signal);
    setTimeout(() => ac.abort(), 50);
    await expect(reading).rejects.toMatchObject({ code: 'CNP_TYPING_CANCELLED', context: { by: 'terminal' } });
  });
});

describe('a GCD answer the pinpad never sends in time', () => {
  // As GCX's was (pinpad-card.ts): a blocking command has no wait of the link's, so an answer held or lost
  // would hold the phone order, and the terminal, until the daemon restarts.
  it('the month held past its deadline ((2 digits + ENTER) × SPE_TIMEOUT + 5 s): CAN, CNP_TYPING_CANCELLED by timeout, the pinpad free', async () => {
    const { virtual, pinpad } = await setup();
    for (const k of ['4111111111111111', '07']) virtual.engine.type(k);
    const cans = virtual.engine.state.cans;
    let started = 0;
    const reading = new PinpadTypedCardReader(pinpad, { timeoutS: 1 }).read(undefined, (p) => {
      if (p.prompt !== 'expiry-month') return;
      // The month's answer (typed at once) is held by the pinpad for 60 s.
      virtual.inject({ kind: 'delay', ms: 60_000 });
      started = Date.now();
    });
    await expect(reading).rejects.toMatchObject({ code: 'CNP_TYPING_CANCELLED', context: { by: 'timeout' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(gcdDeadlineMs(1, 2) - 50);
    expect(virtual.engine.state.cans).toBeGreaterThan(cans);
    // The pinpad takes the next command: a typing from the start.
    for (const k of ['4111111111111111', '12', '2030', '']) virtual.engine.type(k);
    await expect(new PinpadTypedCardReader(pinpad, { timeoutS: 1 }).read()).resolves.toMatchObject({
      expiry: '12/2030',
    });
  }, 30_000);

  it('the card-present typed entry has the same deadline: the month held past it, CAN, the pinpad free', async () => {
    const { virtual, pinpad } = await setup();
    for (const k of ['4111111111111111', '07']) virtual.engine.type(k);
    const cans = virtual.engine.state.cans;
    let asked = 0;
    const relay = {
      show: () => {
        // The month's answer (the second GCD, typed at once) is held by the pinpad for 60 s.
        if (++asked === 2) virtual.inject({ kind: 'delay', ms: 60_000 });
      },
      during: <T>(_what: string, f: () => Promise<T>) => f(),
    };
    const reading = readTypedCard(pinpad, {
      dataKeySlot: 1,
      timeoutS: 1,
      signal: new AbortController().signal,
      relay: relay as never,
      accept: () => undefined,
    });
    // Without its own deadline the read would wait the held 60 s, past this test's 30 s.
    await expect(reading).rejects.toBeDefined();
    expect(virtual.engine.state.cans).toBeGreaterThan(cans);
  }, 30_000);

  it('the deadline counts each key of the longest field typed without a correction, SPE_TIMEOUT being inactivity', () => {
    // ABECS 2.20 §2: SPE_TIMEOUT "reflete o tempo de inatividade do portador e não o tempo máximo de execução".
    expect(gcdDeadlineMs(60, 19)).toBe((20 * 60 + 5) * 1000);
    expect(gcdDeadlineMs(1, 2)).toBe(8000);
  });
});

describe('a pinpad that cannot take the typed card', () => {
  it('a prompt index it refuses (ST_INVPARM) is CNP_TYPING_FAILED naming the pinpad error', async () => {
    const { pinpad } = await setup();
    // The real pinpad, asked an index outside the fixed table instead of the card number's.
    const refusing: CardPinpad = {
      run: (spec, req, opts) =>
        spec.id === 'GCD'
          ? pinpad.run(spec, { ...(req as GcdRequest), message: 0x99 } as typeof req, opts)
          : pinpad.run(spec, req, opts),
    };
    await expect(new PinpadTypedCardReader(refusing).read()).rejects.toMatchObject({
      code: 'CNP_TYPING_FAILED',
      context: { cause: 'PINPAD_STATUS' },
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { card } from '../../../drivers/pinpad/index.js';
import { decodeTlv } from '../../../src/emv/index.js';
import { TEST_CARDS, type TestCard } from '../../../tables/test-cards.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import {
  freshIv,
  hostDecrypt,
  hostPin,
  now,
  startRig,
  statusOf as status,
  type Rig,
} from '../../helpers/pinpad-rig.js';

const DATA_SLOT = 2; // the virtual pinpad's DUKPT data key (profile)
const PIN_SLOT = 1; // and its DUKPT PIN key
const ACQ = '03'; // the sandbox's table index
const TAGS1 = [
  '95',
  '9F26',
  '9F27',
  '9F10',
  '9F37',
  '9F36',
  '9F34',
  '82',
  '84',
  '9F1A',
  '5F2A',
  '9A',
  '9C',
  '9F02',
  '5A',
  '57',
];
const TAGS2 = ['95', '9F26', '9F27', '9F10', '9F37', '9B', '8A', '9F5B'];

const byName = (n: string): TestCard => TEST_CARDS.find((c) => c.name.includes(n))!;
const tags = (b: Uint8Array | undefined): string[] => (b ? decodeTlv(b).map((o) => o.tag) : []);
const tagValue = (b: Uint8Array | undefined, t: string): string | undefined => {
  const o = b ? decodeTlv(b).find((x) => x.tag === t) : undefined;
  return o ? Buffer.from(o.value).toString('hex').toUpperCase() : undefined;
};

/** Every clear PAN, track 2 and PIN of the deck: none may reach the terminal's results or logs. */
const SECRETS = TEST_CARDS.flatMap((c) => [c.pan, c.track2]);

describe.skipIf(!HAS_SOCAT)('card commands: the driver against the virtual pinpad over a pseudo-terminal', () => {
  let rig: Rig;
  const seen: unknown[] = []; // everything the terminal side received

  beforeAll(async () => {
    rig = await startRig();
  }, 20_000);
  afterAll(async () => {
    await rig?.stop();
  });
  beforeEach(() => {
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'right', declineAfterApproval: false });
  });

  const run = async <T>(p: Promise<T>): Promise<T> => {
    const r = await p;
    seen.push(r);
    return r;
  };

  it('a chip sale: GCX → GTK → GOX → FCX → RMC; track and PIN decrypt at the host to the card’s', async () => {
    const c = byName('ending 0');
    rig.sim.engine.state.received.length = 0;
    const read = await run(
      rig.pinpad.run(card.GCX, { amount: 1000, ...now(), acquirer: ACQ, contactless: true, tags: ['5F28', '9F08'] }),
    );
    expect(read).toMatchObject({
      cardType: 'chip',
      maskedPan: `${c.pan.slice(0, 8)}****${c.pan.slice(-4)}`,
      panSequenceNumber: '01',
      label: 'VISA CREDITO',
    });
    expect(read.aidTables).toContainEqual({ acquirer: '03', index: '01', applicationType: '01' });
    expect(tags(read.emvData)).toEqual(['5F28', '9F08']);
    const iv = freshIv();
    const enc = await run(rig.pinpad.run(card.GTK, { keyIndex: DATA_SLOT, iv }));
    const t2 = enc.track2!;
    expect(t2.data).toHaveLength(48); // track 2 as nibbles, F filler to whole blocks: 24 bytes (a 37-digit track too)
    expect(enc.iv).toBe(Buffer.from(iv).toString('hex').toUpperCase());
    expect(hostDecrypt(t2.data, t2.ksn, enc.iv).toString('hex').toUpperCase()).toBe(
      c.track2.replace('=', 'D').padEnd(48, 'F'),
    );
    expect(hostDecrypt(enc.pan!.data, enc.pan!.ksn, enc.iv).toString('hex').toUpperCase()).toBe(c.pan);
    expect(t2.ksn).toMatch(/^FFFFF03033/);
    const gox = await run(
      rig.pinpad.run(card.GOX, {
        acquirer: read.aidTables[0]!.acquirer,
        amount: 1000,
        pinKeyIndex: PIN_SLOT,
        tags: TAGS1,
      }),
    );
    expect(gox).toMatchObject({ decision: 'online', pin: 'online' });
    expect(card.goxOutcome(read, gox)).toBe('online');
    expect(hostPin(gox.pinBlock!.block, gox.pinBlock!.ksn, c.pan)).toBe(c.pin);
    expect(tags(gox.emvData)).not.toContain('5A');
    expect(tags(gox.emvData)).not.toContain('57');
    expect(tagValue(gox.emvData, '9F27')).toBe('80');
    expect(tagValue(gox.emvData, '9C')).toBe('00');
    const fin = await run(rig.pinpad.run(card.FCX, { outcome: 'approved', arc: '00', tags: TAGS2 }));
    expect(fin.decision).toBe('approved');
    expect(tagValue(fin.emvData, '9F27')).toBe('40');
    expect(tagValue(fin.emvData, '8A')).toBe('3030');
    await rig.pinpad.run(card.RMC, ['OPERACAO', 'FINALIZADA']);
    expect(rig.sim.engine.state.received).toEqual(['GCX', 'GTK', 'GOX', 'FCX', 'RMC']);
    expect(rig.sim.engine.state.display).toEqual(['OPERACAO', 'FINALIZADA']);
  });

  it('the host declines or never answers: FCX tells the card, which declines; issuer scripts give results', async () => {
    for (const [outcome, arc] of [
      ['declined', '51'],
      ['no-communication', undefined],
    ] as const) {
      await rig.pinpad.run(card.GCX, { amount: 2000, ...now(), acquirer: ACQ, contactless: false });
      await rig.pinpad.run(card.GTK, { keyIndex: DATA_SLOT, iv: freshIv() });
      await rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 2000, pinKeyIndex: PIN_SLOT });
      const fin = await run(rig.pinpad.run(card.FCX, { outcome, ...(arc ? { arc } : {}), tags: TAGS2 }));
      expect(fin.decision).toBe('declined');
      expect(tagValue(fin.emvData, '9F27')).toBe('00');
      await rig.pinpad.run(card.RMC, 'FIM');
    }
    rig.choose({ declineAfterApproval: true });
    await rig.pinpad.run(card.GCX, { amount: 2000, ...now(), acquirer: ACQ, contactless: false });
    await rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 2000, pinKeyIndex: PIN_SLOT });
    // tag 91 as in the §3.7.4 example, and an issuer script 72 with script id 9F18 = 00000001 and one command 86
    const script = Buffer.from('9108A102DB6D41C67963' + '720C' + '9F180400000001' + '8603840000', 'hex');
    const fin = await run(rig.pinpad.run(card.FCX, { outcome: 'approved', arc: '00', emvData: script, tags: TAGS2 }));
    expect(fin.decision).toBe('declined'); // the card declined after the host approved: the terminal undoes
    expect(Buffer.from(fin.issuerScriptResults!).toString('hex').toUpperCase()).toBe('2000000001');
    await rig.pinpad.run(card.RMC, 'FIM');
  });

  it('a contactless chip card under the CVM limit: no PIN, ARQC, device type', async () => {
    const c = byName('mastercard credit, chip');
    rig.choose({ pan: c.pan, via: 'contactless' });
    const read = await run(rig.pinpad.run(card.GCX, { amount: 1500, ...now(), acquirer: ACQ, contactless: true }));
    expect(read).toMatchObject({
      cardType: 'contactless-chip',
      cardTypeCode: '06',
      deviceType: '00',
      maskedPan: '54133300****0070',
    });
    await rig.pinpad.run(card.GTK, { keyIndex: DATA_SLOT, iv: freshIv() });
    const gox = await run(
      rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 1500, pinKeyIndex: PIN_SLOT, tags: TAGS1 }),
    );
    expect(gox).toMatchObject({ decision: 'online', pin: 'none' });
    expect(gox.pinBlock).toBeUndefined();
  });

  it('contactless rules: "see phone" and again; a blocked card again with contactless off; an offline approval is "insert the card"', async () => {
    const phone = byName('maestro');
    rig.choose({ pan: phone.pan, via: 'contactless' });
    const prompts: string[] = [];
    const read = await run(
      card.readCardWithRules(
        rig.pinpad,
        { amount: 900, ...now(), acquirer: ACQ, contactless: true },
        { onPrompt: (p) => prompts.push(p) },
      ),
    );
    expect(prompts).toEqual(['see-phone']);
    expect(read).toMatchObject({ cardType: 'contactless-chip', deviceType: '01' });
    const gox = await rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 900, pinKeyIndex: PIN_SLOT });
    expect(gox).toMatchObject({ deviceCvm: true, pin: 'none' });

    rig.sim.engine.state.received.length = 0;
    rig.choose({ name: 'blocked chip', via: 'contactless' });
    expect(
      await status(card.readCardWithRules(rig.pinpad, { amount: 900, ...now(), acquirer: ACQ, contactless: true })),
    ).toBe(79);
    expect(rig.sim.engine.state.received).toEqual(['GCX', 'GCX']); // the second with contactless off

    rig.choose({ name: 'approves offline', via: 'contactless' });
    const r2 = await run(rig.pinpad.run(card.GCX, { amount: 900, ...now(), acquirer: ACQ, contactless: true }));
    const g2 = await rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 900, pinKeyIndex: PIN_SLOT });
    expect(g2.decision).toBe('approved-offline');
    expect(card.goxOutcome(r2, g2)).toBe('insert-card');
  });

  it('stripe with PIN: GCX → GPN → GTK; GPN after GTK and a second GTK are ST_INVCALL', async () => {
    const c = byName('stripe card, PIN 4321');
    rig.choose({ pan: c.pan, via: 'stripe' });
    const read = await run(rig.pinpad.run(card.GCX, { amount: 5000, ...now(), acquirer: ACQ, contactless: true }));
    expect(read).toMatchObject({
      cardType: 'stripe',
      iccStatus: 'ok',
      maskedPan: '54133300****0050',
      expiry: c.expiry,
      serviceCode: '101',
      track2: `54133300****0050=${c.expiry}101`,
    });
    const pin = await run(rig.pinpad.run(card.GPN, { keyIndex: PIN_SLOT, message: ['R$ 50,00', 'SENHA:'] }));
    expect(hostPin(pin.block, pin.ksn, c.pan)).toBe('4321');
    const enc = await run(rig.pinpad.run(card.GTK, { keyIndex: DATA_SLOT, iv: freshIv() }));
    expect(enc.pan).toBeUndefined();
    expect(hostDecrypt(enc.track2!.data, enc.track2!.ksn, enc.iv).toString('hex').toUpperCase()).toMatch(
      new RegExp(`^${c.track2.replace('=', 'D')}F*$`),
    );
    expect(await status(rig.pinpad.run(card.GPN, { keyIndex: PIN_SLOT, message: 'SENHA' }))).toBe(10);
    expect(await status(rig.pinpad.run(card.GTK, { keyIndex: DATA_SLOT, iv: freshIv() }))).toBe(10);
    expect(await status(rig.pinpad.run(card.GTK, { keyIndex: 7, iv: freshIv() }))).toBe(10);
  });

  it('typed: EBX encrypts the typed number with method 51; the host decrypts it', async () => {
    const typed = byName('ending 3').pan;
    const block = card.typedPanBlock(typed);
    const iv = freshIv();
    const enc = await rig.pinpad.run(card.EBX, { data: block, keyIndex: DATA_SLOT, iv });
    card.wipe(block);
    expect(block.every((b) => b === 0)).toBe(true);
    expect(hostDecrypt(enc.data, enc.ksn, enc.iv).toString('hex').toUpperCase()).toBe(typed);
    expect(await status(rig.pinpad.run(card.EBX, { data: new Uint8Array(8), keyIndex: 9, iv }))).toBe(42);
  });

  it('fallback: the chip fails (ST_ERRFALLBACK), the stripe read then says so (PP_ICCSTAT 1)', async () => {
    rig.choose({ name: 'chip fails', via: 'chip' });
    expect(await status(rig.pinpad.run(card.GCX, { amount: 700, ...now(), acquirer: ACQ, contactless: false }))).toBe(
      76,
    );
    const read = await run(rig.pinpad.run(card.GCX, { amount: 700, ...now(), acquirer: ACQ, contactless: false }));
    expect(read).toMatchObject({ cardType: 'stripe', iccStatus: 'fallback', serviceCode: '201' });
  });

  it('a refund (void) with transaction type 20h: GCX and GOX carry it, FCX and RMC finish', async () => {
    rig.sim.engine.state.received.length = 0;
    await run(
      rig.pinpad.run(card.GCX, { amount: 1000, ...now(), acquirer: ACQ, contactless: true, transactionType: 'refund' }),
    );
    await rig.pinpad.run(card.GTK, { keyIndex: DATA_SLOT, iv: freshIv() });
    const gox = await run(
      rig.pinpad.run(card.GOX, {
        acquirer: ACQ,
        amount: 1000,
        pinKeyIndex: PIN_SLOT,
        transactionType: 'refund',
        tags: TAGS1,
      }),
    );
    expect(tagValue(gox.emvData, '9C')).toBe('20');
    await rig.pinpad.run(card.FCX, { outcome: 'approved', arc: '00' });
    await rig.pinpad.run(card.RMC, 'ESTORNO OK');
    expect(rig.sim.engine.state.received).toEqual(['GCX', 'GTK', 'GOX', 'FCX', 'RMC']);
  });

  it('the customer cancels at the card prompt (ST_CANCEL) and at the PIN prompt', async () => {
    rig.choose({ action: 'cancel' });
    expect(await status(rig.pinpad.run(card.GCX, { amount: 100, ...now(), contactless: true }))).toBe(13);
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'cancel' });
    await rig.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: ACQ, contactless: true });
    expect(await status(rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 100, pinKeyIndex: PIN_SLOT }))).toBe(13);
  });

  it('CAN during PIN entry: the terminal aborts GOX, the pinpad answers EOT, the next sale starts cleanly', async () => {
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'nothing' });
    await rig.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: ACQ, contactless: true });
    const ac = new AbortController();
    const notes: string[] = [];
    const onNote = (n: { text: string }): void => void notes.push(n.text);
    rig.pinpad.on('notification', onNote);
    const cans = rig.sim.engine.state.cans;
    const pending = status(
      rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 100, pinKeyIndex: PIN_SLOT }, { signal: ac.signal }),
    );
    await new Promise((r) => setTimeout(r, 300));
    ac.abort();
    expect(await pending).toBe('PINPAD_CANCELLED');
    rig.pinpad.off('notification', onNote);
    expect(notes).toContain('DIGITE A SENHA');
    expect(rig.sim.engine.state.cans).toBeGreaterThan(cans);
    rig.choose({ pin: 'right' });
    const read = await rig.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: ACQ, contactless: true });
    expect(read.cardType).toBe('chip');
  });

  it('nobody presents a card: GCX ends with ST_TIMEOUT after SPE_TIMEOUT; no PIN typed: GOX likewise', async () => {
    rig.choose({ action: 'nothing' });
    const t0 = Date.now();
    expect(await status(rig.pinpad.run(card.GCX, { amount: 100, ...now(), contactless: true, timeoutS: 1 }))).toBe(12);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'nothing' });
    await rig.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: ACQ, contactless: true });
    expect(
      await status(rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 100, pinKeyIndex: PIN_SLOT, timeoutS: 1 })),
    ).toBe(12);
    expect(await status(rig.pinpad.run(card.GOX, { acquirer: ACQ, amount: 100, pinKeyIndex: 9 }))).toBe(10); // GOX once per read
  });

  it('CEX: a swipe (masked incomplete tracks), the chip inserted, then removed', async () => {
    const c = byName('ending 4');
    rig.choose({ pan: c.pan, via: 'stripe' });
    expect(await run(rig.pinpad.run(card.CEX, { stripe: true, keys: true }))).toMatchObject({
      code: '90',
      event: 'stripe',
      track2: `47617300****0094=${c.expiry}201`,
    });
    rig.choose({ pan: c.pan, via: 'chip' });
    expect(await run(rig.pinpad.run(card.CEX, { icc: 'insert' }))).toMatchObject({ code: '92', event: 'icc-inserted' });
    await rig.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: ACQ, contactless: false });
    expect(await run(rig.pinpad.run(card.CEX, { icc: 'remove' }))).toMatchObject({ code: '91', event: 'icc-removed' });
    await rig.pinpad.run(card.RMC, 'FIM'); // nothing inserted any more: returns at once
  });

  it('a card the tables cannot process (no AID record for the network) is ST_CARDAPPNAV', async () => {
    expect(await status(rig.pinpad.run(card.GCX, { amount: 100, ...now(), acquirer: '07', contactless: false }))).toBe(
      70,
    );
  });

  it('MNU: the customer chooses a product; MLI/MLR/MLE/DSI show an image', async () => {
    rig.sim.engine.type('2');
    expect(await rig.pinpad.run(card.MNU, { title: 'ESCOLHA', options: ['CREDITO', 'DEBITO'], timeoutS: 30 })).toBe(2);
    const png = Buffer.alloc(3334, 7);
    await card.showImage(rig.pinpad, { name: 'QRCODE01', type: 'png', data: png });
    expect(rig.sim.engine.state.display[0]).toBe('[image QRCODE01]');
    expect(await status(rig.pinpad.run(card.DSI, 'NOPE0000'))).toBe(100);
    await rig.pinpad.run(card.MLI, { name: 'BAD00000', type: 'png', size: 10, crc: 1 });
    await rig.pinpad.run(card.MLR, Buffer.alloc(10));
    expect(await status(rig.pinpad.run(card.MLE, undefined))).toBe(102);
  });

  it('the terminal side never held a clear PAN or track, and none is in the driver’s log', () => {
    const text =
      JSON.stringify(seen, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v)) +
      rig.logs.join('\n');
    for (const s of SECRETS) expect(text.includes(s), 'a clear PAN or track reached the terminal').toBe(false);
    for (const c of TEST_CARDS)
      expect(text.includes(c.pan.slice(8, -4)) && text.includes(c.pan.slice(0, 12)), 'PAN digits 9 and on').toBe(false);
    expect(rig.logs.length).toBeGreaterThan(0);
  });
});

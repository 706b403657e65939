import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Pinpad, isPinpadError, type PinpadLinkEvent, type PinpadNotification } from '../../../drivers/pinpad/index.js';
import { SerialTransport } from '../../../drivers/transport/serial.js';
import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';
import { HAS_SOCAT, waitForPaths } from '../../helpers/socat.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';
import { tempDirForFile, useTempDirs } from '../../helpers/temp-dir.js';

/** Link times shortened where the behaviour, not the constant, is under test. */
const FAST = { ackMs: 300, responseMs: 1000, eotMs: 300, silenceMs: 50 };

function until(pred: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (pred()) resolve();
      else if (Date.now() > end) reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

describe.skipIf(!HAS_SOCAT)(
  'Pinpad driver against the virtual pinpad process over a real pseudo-terminal (serialport)',
  () => {
    let sim: SimProcess;
    const pty = path.join(tempDirForFile('omnipos-pinpad-'), 'pinpad');
    let pinpad: Pinpad;
    let events: PinpadLinkEvent[];

    beforeAll(async () => {
      sim = await startSim(['--pty', pty]);
      pinpad = new Pinpad({
        transport: () => new SerialTransport({ path: pty }),
        timings: FAST,
        probeIntervalMs: 150,
        reconnect: { initialMs: 50, maxMs: 200 },
      });
      events = [];
      pinpad.on('link', (e) => events.push(e));
      await pinpad.connect();
    }, 20_000);

    afterAll(async () => {
      await pinpad?.close();
      await sim?.stop();
    });

    beforeEach(async () => {
      await sim.control({ cmd: 'clear' });
      await sim.control({ cmd: 'typing', ms: 30 });
      await until(() => pinpad.status === 'connected');
      events.length = 0;
    });

    it('opened the session with CAN then OPN, and answers every command that needs no card', async () => {
      expect((await sim.state()).received[0]).toBe('OPN');
      const info = await pinpad.info();
      expect(info).toMatchObject({
        source: 'GIX',
        serialNumber: 'VPP0000000001',
        model: 'VPP-1;8MB',
        firmware: 'VSO 1.0.0',
        specVersion: '2.20',
      });
      expect(info.keys.dukptPin['01']).toBe('present');
      expect(info.dukptPinKsn?.['01']).toBe(SANDBOX_KEYS.pinInitialKsn);
      await pinpad.open();
      expect((await pinpad.gin(0)).fields).toMatchObject({ GIN_MNAME: 'OMNIPOS VIRTUAL', GIN_SERNUM: 'VPP0000000001' });
      expect((await pinpad.gin(2)).fields).toMatchObject({ GIN_ACQNAM: 'Abecs', GIN_SPECVER: '2.20' });
      expect((await pinpad.gin(3)).fields).toMatchObject({ GIN_DUKPT: 'T' });
      expect((await pinpad.gin(7)).fields).toMatchObject({ GIN_ACQNAME: 'Abecs' });
      expect((await pinpad.gix([0x8001, 0x8007])).data).toEqual({ PP_SERNUM: 'VPP0000000001', PP_SPECVER: '2.20' });
      await pinpad.display(['PAGAMENTO', 'APROVADO']);
      expect((await sim.state()).display).toEqual(['PAGAMENTO', 'APROVADO']);
      await pinpad.displayEx('Insira\nou aproxime', { horizontal: 'center', kind: 'info' });
      expect((await sim.state()).display).toEqual(['Insira', 'ou aproxime']);
      const notes: PinpadNotification[] = [];
      pinpad.on('notification', (n) => notes.push(n));
      await sim.control({ cmd: 'keys', value: '12345678909' });
      expect(await pinpad.getData({ message: 7, minDigits: 11, maxDigits: 11, timeoutS: 30 })).toBe('12345678909');
      expect(notes).toEqual([{ command: 'GCD', text: 'DIGITE O CPF' }]);
      await pinpad.closeSession(['OBRIGADO', '']);
      expect((await sim.state()).display).toEqual(['OBRIGADO', '']);
    });

    it('survives a NAK storm of two (third send goes through) and fails a storm of three with PINPAD_NAK; the next command works', async () => {
      await sim.fault({ kind: 'nak-storm', count: 2 });
      await pinpad.display('tres tentativas');
      await sim.fault({ kind: 'nak-storm', count: 3 });
      await expect(pinpad.display('x')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_NAK'));
      await pinpad.display('depois do NAK');
      expect((await sim.state()).display[0]).toBe('depois do NAK');
    });

    it('NAKs a response with a bad CRC and takes the resend; three bad receptions fail with PINPAD_NAK', async () => {
      await sim.fault({ kind: 'bad-crc', count: 1 });
      expect((await pinpad.gix([0x8001])).data.PP_SERNUM).toBe('VPP0000000001');
      await sim.fault({ kind: 'bad-crc', count: 3 });
      await expect(pinpad.gix([0x8001])).rejects.toMatchObject({
        code: 'PINPAD_NAK',
        context: { reason: 'bad-response' },
      });
      await sim.control({ cmd: 'clear' });
      expect((await pinpad.gin(0)).fields.GIN_SERNUM).toBe('VPP0000000001');
    });

    it('takes the answer of a command whose ACK was lost (the pinpad answers only what it took), and the next command works', async () => {
      await sim.fault({ kind: 'lost-ack' });
      await pinpad.display('sem ack');
      expect((await sim.state()).display[0]).toBe('sem ack');
      await pinpad.display('com ack');
      expect((await sim.state()).display[0]).toBe('com ack');
    });

    it('times out a non-blocking command answered too late, and reads a response behind line noise', async () => {
      await sim.fault({ kind: 'delay', ms: 1500 });
      await expect(pinpad.display('lento')).rejects.toMatchObject({
        code: 'PINPAD_TIMEOUT',
        context: { phase: 'response' },
      });
      await new Promise((r) => setTimeout(r, 700));
      await sim.fault({ kind: 'garbage', bytes: 40 });
      await pinpad.display('com ruido');
      expect((await sim.state()).display[0]).toBe('com ruido');
    });

    it('sends CAN during a long blocking command when the signal aborts; the pinpad stops and the next command works', async () => {
      await sim.control({ cmd: 'typing', ms: null });
      const ac = new AbortController();
      const p = pinpad.getData({ message: 9 }, { signal: ac.signal });
      await until(() => true);
      await new Promise((r) => setTimeout(r, 200));
      const before = (await sim.state()).cans;
      ac.abort();
      await expect(p).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_CANCELLED'));
      expect((await sim.state()).cans).toBe(before + 1);
      await pinpad.display('cancelado');
      expect((await sim.state()).display[0]).toBe('cancelado');
    });

    it('never probes while a blocking command runs (a probe would abort it)', async () => {
      await sim.control({ cmd: 'typing', ms: null });
      const p = pinpad.getData({ message: 1 });
      await new Promise((r) => setTimeout(r, 100));
      const before = (await sim.state()).cans;
      await new Promise((r) => setTimeout(r, 700));
      expect((await sim.state()).cans).toBe(before);
      await sim.control({ cmd: 'keys', value: '11' });
      expect(await p).toBe('11');
      await new Promise((r) => setTimeout(r, 400));
      expect((await sim.state()).cans).toBeGreaterThan(before);
    });

    it('detects a pinpad that stops answering (idle probe), reconnects with backoff once it answers again', async () => {
      await sim.fault({ kind: 'silence' });
      // no ACK (PINPAD_TIMEOUT), or, if an idle probe was on the wire first, the probe's loss (PINPAD_DISCONNECTED)
      await expect(pinpad.display('alguem?')).rejects.toSatisfy(
        (e) => isPinpadError(e, 'PINPAD_TIMEOUT') || isPinpadError(e, 'PINPAD_DISCONNECTED'),
      );
      await until(() => events.some((e) => e.state === 'disconnected'));
      await expect(pinpad.display('caido')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_DISCONNECTED'));
      await until(() => events.filter((e) => e.state === 'reconnecting').length >= 2);
      await sim.control({ cmd: 'clear' });
      await until(() => pinpad.status === 'connected');
      // the idle probe's CAN, or the CAN that resynchronises after the command's timeout, went unanswered
      expect(events[0]).toMatchObject({ state: 'disconnected' });
      expect(['probe-unanswered', 'resync-unanswered']).toContain((events[0] as { reason: string }).reason);
      expect(events.at(-1)).toMatchObject({ state: 'reconnected' });
      await pinpad.display('voltou');
      expect((await sim.state()).display[0]).toBe('voltou');
    });

    it('unplug in the middle of a command: it fails as disconnected, the pty comes back at the same path, the driver reconnects, the next command works', async () => {
      const plugs = await sim.state();
      await sim.fault({ kind: 'disconnect', when: 'mid-command', replugAfterMs: 400 });
      await expect(pinpad.display('desconecta')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_DISCONNECTED'));
      expect(existsSync(pty)).toBe(false);
      await until(() => events.some((e) => e.state === 'reconnecting'));
      await waitForPaths([pty]);
      await until(() => pinpad.status === 'connected');
      const after = await sim.state();
      expect([after.unplugged - plugs.unplugged, after.replugged - plugs.replugged]).toEqual([1, 1]);
      expect(events.map((e) => e.state)).toContain('disconnected');
      expect(events.at(-1)).toMatchObject({ state: 'reconnected' });
      const received = (await sim.state()).received;
      expect(received.at(-1)).toBe('OPN');
      await pinpad.display('replugado');
      expect((await sim.state()).display[0]).toBe('replugado');
    });

    it('unplug while idle is seen without any command (EIO on the port)', async () => {
      await sim.control({ cmd: 'unplug', replugAfterMs: 300 });
      await until(() => events.some((e) => e.state === 'disconnected'));
      expect(events[0]).toMatchObject({ state: 'disconnected' });
      await until(() => pinpad.status === 'connected');
      await pinpad.display('ok');
    });
  },
);

describe.skipIf(!HAS_SOCAT)('a classic-only virtual pinpad over a pseudo-terminal', () => {
  const tempDir = useTempDirs();
  it('answers GIX with ERR010, so info comes from GIN', async () => {
    const pty = path.join(tempDir('omnipos-pinpad-'), 'classic');
    const sim = await startSim(['--pty', pty, '--classic']);
    const pinpad = new Pinpad({
      transport: () => new SerialTransport({ path: pty }),
      timings: FAST,
      probeIntervalMs: 0,
    });
    try {
      await pinpad.connect();
      await expect(pinpad.gix()).rejects.toMatchObject({
        code: 'PINPAD_STATUS',
        context: { responseId: 'ERR', statusName: 'ST_INVCALL' },
      });
      const info = await pinpad.info();
      expect(info).toMatchObject({
        source: 'GIN',
        serialNumber: 'VPP0000000001',
        specVersion: '2.20',
        keys: { dukptPin: { '01': 'present' } },
      });
    } finally {
      await pinpad.close();
      await sim.stop();
    }
  }, 20_000);
});

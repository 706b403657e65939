import { describe, expect, it } from 'vitest';
import { UsbPrinterTransport } from '../../../../drivers/printer/index.js';

/**
 * The USB transport cannot meet a device here (CI has none): these tests hand it a WebUSB-shaped
 * device object to check what it decides by itself — the printer-class interface, its bulk
 * endpoints, byte order, and errors mapped to the transport's codes. A real printer is tested by
 * hand (`omnipos printer test --usb VID:PID`).
 */
function fakeDevice(opts: { failOut?: boolean; inEndpoint?: boolean } = {}) {
  const sent: Uint8Array[] = [];
  const replies: Uint8Array[] = [Uint8Array.of(0x12), Uint8Array.of(0x16)];
  const calls: string[] = [];
  const device = {
    configuration: {
      interfaces: [
        { interfaceNumber: 0, alternate: { interfaceClass: 3, endpoints: [] } },
        {
          interfaceNumber: 1,
          alternate: {
            interfaceClass: 7,
            endpoints: [
              { endpointNumber: 2, direction: 'out' as const, type: 'bulk' },
              ...(opts.inEndpoint === false ? [] : [{ endpointNumber: 5, direction: 'in' as const, type: 'bulk' }]),
            ],
          },
        },
      ],
    },
    open: () => (calls.push('open'), Promise.resolve()),
    close: () => (calls.push('close'), Promise.resolve()),
    selectConfiguration: () => Promise.resolve(),
    claimInterface: (n: number) => (calls.push(`claim ${n}`), Promise.resolve()),
    releaseInterface: (n: number) => (calls.push(`release ${n}`), Promise.resolve()),
    transferOut: (ep: number, data: Uint8Array) => {
      calls.push(`out ${ep}`);
      if (opts.failOut) return Promise.reject(new Error('LIBUSB_ERROR_NO_DEVICE'));
      sent.push(data);
      return Promise.resolve({ status: 'ok' });
    },
    transferIn: (ep: number) => {
      calls.push(`in ${ep}`);
      const r = replies.shift();
      return r ? Promise.resolve({ status: 'ok', data: new DataView(r.buffer) }) : new Promise<never>(() => undefined);
    },
  };
  return { device, sent, calls };
}

describe('UsbPrinterTransport (thin: no device in CI)', () => {
  it('claims the printer-class interface and moves bytes on its bulk endpoints', async () => {
    const { device, sent, calls } = fakeDevice();
    const t = new UsbPrinterTransport({ vendorId: 0x04b8, productId: 0x0e15, find: () => Promise.resolve(device) });
    expect(t.description).toBe('usb:04b8:0e15');
    await t.open();
    await t.write(Uint8Array.of(0x10, 0x04, 0x01));
    expect([...(await t.read())!]).toEqual([0x12]);
    expect([...(await t.read())!]).toEqual([0x16]);
    expect(sent.map((b) => [...b])).toEqual([[0x10, 0x04, 0x01]]);
    await t.close();
    expect(calls).toEqual(['open', 'claim 1', 'out 2', 'in 5', 'in 5', 'release 1', 'close']);
    expect(t.isOpen).toBe(false);
  });

  it('maps a missing device and a failed transfer to the transport error codes', async () => {
    await expect(
      new UsbPrinterTransport({ vendorId: 1, productId: 2, find: () => Promise.resolve(undefined) }).open(),
    ).rejects.toMatchObject({ code: 'TRANSPORT_OPEN_FAILED' });
    const { device } = fakeDevice({ failOut: true });
    const t = new UsbPrinterTransport({ vendorId: 1, productId: 2, find: () => Promise.resolve(device) });
    await t.open();
    await expect(t.write(Uint8Array.of(1))).rejects.toMatchObject({ code: 'TRANSPORT_DISCONNECTED' });
    await t.close();
  });
});

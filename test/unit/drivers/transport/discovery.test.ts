import { describe, expect, it } from 'vitest';
import { discoverPinpadPorts, knownPinpad } from '../../../../drivers/transport/discovery.js';
import type { PortInfo } from '../../../../drivers/transport/transport.js';

const PORTS: PortInfo[] = [
  { kind: 'serial', path: '/dev/ttyS0' },
  {
    kind: 'serial',
    path: '/dev/ttyUSB0',
    vendorId: 0x0dd4,
    productId: 0x0195,
    aliases: ['/dev/serial/by-id/usb-Custom_Fiscal_Printer-if00'],
  },
  {
    kind: 'serial',
    path: '/dev/ttyACM0',
    vendorId: 0x1753,
    productId: 0xc902,
    aliases: ['/dev/serial/by-id/usb-GERTEC_PPC930_123-if00'],
  },
  { kind: 'serial', path: '/dev/ttyACM1', vendorId: 0x079b, productId: 0x0028 },
  {
    kind: 'serial',
    path: '/dev/ttyUSB1',
    vendorId: 0x067b,
    productId: 0x2303,
    aliases: ['/dev/serial/by-id/usb-Prolific_Scale-if00'],
  },
];

describe('pinpad discovery (never by sending bytes)', () => {
  it('takes a configured path as is', async () => {
    expect(await discoverPinpadPorts({ path: '/dev/pinpad' }, PORTS)).toEqual([
      { path: '/dev/pinpad', why: 'configured path' },
    ]);
  });
  it('finds known pinpads by USB ids, preferring the stable udev name, and never the printer or the scale', async () => {
    const found = await discoverPinpadPorts({}, PORTS);
    expect(found.map((f) => f.path)).toEqual(['/dev/serial/by-id/usb-GERTEC_PPC930_123-if00', '/dev/ttyACM1']);
    expect(found[0]!.why).toContain('Gertec PPC 920/930');
  });
  it('matches a udev name pattern', async () => {
    expect(await discoverPinpadPorts({ udevName: 'ppc930' }, PORTS)).toEqual([
      { path: '/dev/serial/by-id/usb-GERTEC_PPC930_123-if00', why: 'udev name usb-GERTEC_PPC930_123-if00' },
    ]);
  });
  it('accepts site-configured USB ids', () => {
    expect(knownPinpad(PORTS[4]!)).toBeUndefined();
    expect(knownPinpad(PORTS[4]!, [{ vendorId: 0x067b, productId: 0x2303 }])).toBe('configured USB id');
  });
});

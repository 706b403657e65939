import { describe, expect, it } from 'vitest';
import { card } from '../../../../../../drivers/pinpad/index.js';

/** SPE_MFNAME (001Eh, A8): "somente caracteres numéricos e letras, sem espaços ou símbolos" (§3.1.3.1). */
describe('the multimedia file name carries no padding spaces', () => {
  const tail = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

  it('MLI and DSI send QRCODE as 6 characters, not "QRCODE  "', () => {
    const mli = tail(card.MLI.encode({ name: 'QRCODE', type: 'png', size: 10, crc: 0x1234 }));
    expect(mli).toContain('\x00\x1e\x00\x06QRCODE');
    expect(mli).not.toContain('QRCODE ');
    const dsi = tail(card.DSI.encode('QRCODE'));
    expect(dsi).toBe('DSI010\x00\x1e\x00\x06QRCODE');
  });

  it('an 8-character name (the §3.4.6 example, QRCODE01) is unchanged', () => {
    expect(tail(card.DSI.encode('QRCODE01'))).toBe('DSI012\x00\x1e\x00\x08QRCODE01');
  });
});

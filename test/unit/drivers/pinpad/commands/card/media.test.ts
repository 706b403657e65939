import { describe, expect, it } from 'vitest';
import { card, PinpadError } from '../../../../../../drivers/pinpad/index.js';

/**
 * SPE_MFNAME (001Eh, A8): "somente caracteres numéricos e letras, sem espaços ou símbolos" (§3.1.3.1).
 * A8 is a fixed length (§1.3) and spaces are excluded, so the name is exactly 8 letters or digits.
 */
describe('the multimedia file name is exactly 8 letters or digits', () => {
  const tail = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

  it('an 8-character name (the §3.4.6 example, QRCODE01) goes as it is', () => {
    expect(tail(card.DSI.encode('QRCODE01'))).toBe('DSI012\x00\x1e\x00\x08QRCODE01');
    const mli = tail(card.MLI.encode({ name: 'QRCODE01', type: 'png', size: 10, crc: 0x1234 }));
    expect(mli).toContain('\x00\x1e\x00\x08QRCODE01');
  });

  it('refuses QRCODE (6), a padded "QRCODE  " and a symbol before anything is sent, as a real pinpad would', () => {
    for (const name of ['QRCODE', 'QRCODE  ', 'QR-CODE1', 'QRCODE012'])
      expect(() => card.DSI.encode(name), name).toThrow(PinpadError);
  });
});

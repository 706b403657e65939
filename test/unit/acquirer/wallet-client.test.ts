import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { json, loopback, loopbackAcquirer } from '../../helpers/loopback.js';

/**
 * The wallet API's expired key: "412 Precondition Failed — 001: Chave expirada" (QR manual v4,
 * _i18n/pt/_posts/qrcode/2021-10-19-qrcode-v4.md line 149); the same host writes its other codes
 * with the status as a prefix ("412.101", lines 335-337). Either spelling fetches the key again and
 * pays once more; any other 412 is the host's refusal.
 */
describe('wallet card payment after the host expired its key', () => {
  it.each(['001', '412.001'])('412 {code: %s}: a new key, and the payment sent once more', async (code) => {
    const der = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    let payments = 0;
    const s = await loopback((req, res) => {
      if (req.url === '/v2/oauth/access-token') return json(res, 201, { access_token: 't', expires_in: 3600 });
      if (req.url === '/padraoq/v1/publicKey')
        return json(res, 200, { public_key: der, key_id: `k${payments}`, expires_in: 3600 });
      payments++;
      if (payments === 1) return json(res, 412, { code, description: 'Chave expirada' });
      json(res, 201, {
        reference_label: '263290001360003',
        merchant_id: 'm',
        terminal_id: 't',
        authorization_code: '031581',
        authentication_code: null,
        host_nsu: '1',
        terminal_nsu: '1',
        timestamp: 'x',
        card_scheme: 'ELO',
      });
    });
    const a = loopbackAcquirer(s.url);
    try {
      const paid = await a.wallet.pay({
        qrCode: '000201',
        card: {
          card_number: '4761739001010010',
          card_cvv: '123',
          card_holder_name: 'TESTE',
          card_expiration_date: '1230',
        },
        payerDocument: '52998224725',
        payerName: 'TESTE',
      });
      expect(paid.authorization_code).toBe('031581');
      expect(payments).toBe(2);
      expect(s.seen.filter((r) => r.url === '/padraoq/v1/publicKey')).toHaveLength(2);
    } finally {
      await a.close();
      await s.close();
    }
  });
});

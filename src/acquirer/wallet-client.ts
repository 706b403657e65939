import { z } from 'zod';
import { type Clock, OmniposError } from '../core/index.js';
import { encryptCardData, type WalletCardData } from '../crypto/index.js';
import { httpError } from './errors.js';
import type { AcquirerHttp } from './http.js';
import type { SecretSource } from './oauth.js';

/** The card payment answer (000, "Card payment response"). */
export interface WalletPaymentAnswer {
  reference_label: string;
  merchant_id: string;
  terminal_id: string;
  authorization_code: string;
  authentication_code: string | null;
  host_nsu: string;
  terminal_nsu: string;
  timestamp: string;
  card_scheme: string;
  [more: string]: unknown;
}

export interface WalletPayment {
  qrCode: string;
  card: WalletCardData;
  payerDocument: string;
  payerName: string;
  /** The QR member's spelling: `qrcode` (the property table) or `qr_code` (the examples). Default `qrcode`. */
  qrField?: 'qrcode' | 'qr_code';
}

export interface WalletClientOptions {
  http: AcquirerHttp;
  clientId: string;
  clientSecret: SecretSource;
  clock: Clock;
  /** `json` uses `/v2/oauth/access-token`, `form` `/v2/oauth/token`. Default `json`. */
  tokenFormat?: 'json' | 'form';
}

const Token = z.looseObject({ access_token: z.string().min(1), expires_in: z.number() });
const Key = z.looseObject({ public_key: z.string().min(1), key_id: z.string().min(1), expires_in: z.number() });

/**
 * A wallet's side of the QR API (000): token with scopes `qrcode_write,qrcode_read`, the RSA
 * public key (cached until its `expires_in`), card payment with the card data encrypted under
 * it, and QR parsing. A 412 `001` or `412.001` (expired key) fetches the key again and pays once more: the
 * host did not process the payment. 412 and 422 business errors throw ACQUIRER_HTTP carrying
 * `code` and `description`.
 */
export class WalletClient {
  readonly #o: WalletClientOptions;
  #token: { value: string; renewAt: number } | undefined;
  #key: { publicKey: string; keyId: string; renewAt: number } | undefined;

  constructor(options: WalletClientOptions) {
    this.#o = options;
  }

  async #bearer(): Promise<string> {
    const now = this.#o.clock.now().getTime();
    if (this.#token && now < this.#token.renewAt) return this.#token.value;
    const basic = `Basic ${Buffer.from(`${this.#o.clientId}:${this.#o.clientSecret.reveal()}`).toString('base64')}`;
    const form = this.#o.tokenFormat === 'form';
    const res = form
      ? await this.#o.http.send(
          'walletTokenForm',
          {},
          {
            form: { grant_type: 'client_credentials', scopes: 'qrcode_write,qrcode_read' },
            headers: { authorization: basic },
          },
        )
      : await this.#o.http.send(
          'walletTokenJson',
          {},
          {
            json: { grant_type: 'client_credentials', scopes: 'qrcode_write,qrcode_read' },
            headers: { authorization: basic },
          },
        );
    const route = form ? 'walletTokenForm' : 'walletTokenJson';
    if (res.status !== 200 && res.status !== 201) throw httpError(route, res.status, res.body);
    const t = Token.safeParse(res.body);
    if (!t.success)
      throw new OmniposError('ACQUIRER_BAD_RESPONSE', `${route}: no access_token/expires_in`, {
        route,
        status: res.status,
        outcomeUnknown: false,
      });
    this.#token = { value: t.data.access_token, renewAt: now + t.data.expires_in * 900 };
    return t.data.access_token;
  }

  /** `GET /padraoq/v1/publicKey`, cached until shortly before it expires. */
  async publicKey(force = false): Promise<{ publicKey: string; keyId: string }> {
    const now = this.#o.clock.now().getTime();
    if (!force && this.#key && now < this.#key.renewAt) return this.#key;
    const res = await this.#o.http.send(
      'walletPublicKey',
      {},
      { headers: { authorization: `Bearer ${await this.#bearer()}` } },
    );
    if (res.status !== 200) throw httpError('walletPublicKey', res.status, res.body);
    const k = Key.safeParse(res.body);
    if (!k.success)
      throw new OmniposError('ACQUIRER_BAD_RESPONSE', 'walletPublicKey: no public_key/key_id/expires_in', {
        route: 'walletPublicKey',
        status: 200,
        outcomeUnknown: false,
      });
    this.#key = { publicKey: k.data.public_key, keyId: k.data.key_id, renewAt: now + k.data.expires_in * 900 };
    return this.#key;
  }

  /** `POST /padraoq/v1/payment/card`. Not repeated after a lost answer (a resubmission with the same payer is idempotent at the host). */
  async pay(p: WalletPayment): Promise<WalletPaymentAnswer> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const key = await this.publicKey(attempt > 0);
      const body = {
        key_id: key.keyId,
        card_data: encryptCardData(key.publicKey, p.card),
        payee_document: p.payerDocument,
        payee_name: p.payerName,
        authorization_token: null,
        [p.qrField ?? 'qrcode']: p.qrCode,
      };
      const res = await this.#o.http.send(
        'walletCardPayment',
        {},
        { json: body, headers: { authorization: `Bearer ${await this.#bearer()}` } },
      );
      if (res.status === 200 || res.status === 201) return res.body as WalletPaymentAnswer;
      const code = (res.body as { code?: unknown } | undefined)?.code;
      // "412 Precondition Failed — 001: Chave expirada" (QR manual v4, line 149); the host's codes
      // elsewhere carry the status as a prefix ("412.101"), so both spellings mean the expired key.
      if (res.status === 412 && (code === '001' || code === '412.001') && attempt === 0) continue;
      throw httpError('walletCardPayment', res.status, res.body);
    }
    throw new OmniposError('ACQUIRER_HTTP', 'walletCardPayment: the key expired twice', {
      route: 'walletCardPayment',
      outcomeUnknown: false,
    });
  }

  /** `GET /padraoq/v1/parsedQRCode?qrcode=…`. */
  async parse(qrCode: string): Promise<Record<string, unknown>> {
    const res = await this.#o.http.send(
      'walletParseQr',
      {},
      { query: { qrcode: qrCode }, headers: { authorization: `Bearer ${await this.#bearer()}` } },
    );
    if (res.status !== 200) throw httpError('walletParseQr', res.status, res.body);
    return res.body as Record<string, unknown>;
  }
}

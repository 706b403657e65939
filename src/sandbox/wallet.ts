import { HOST_TIME_ZONE, localTime } from '../core/index.js';
import { decryptCardData, isLuhnValid, isValidCnpj, isValidCpf } from '../crypto/index.js';
import { parseQr } from '../qr/index.js';
import { basicCredentials, credentialsOk, hashToken, issueToken } from './auth.js';
import { ledgerEntry, newUuid, type SandboxContext } from './context.js';
import { findEcommerce, markQrPaid, type EcommerceRow } from './ecommerce.js';
import { scenario } from './scenario.js';
import { formBody, Refusal, type Answer, type SandboxRequest } from './http-kit.js';
import { merchantByNumber, terminalExists } from './registration.js';
import { cardMatch, findSaleByOrderId } from './sale-rows.js';
import { nextNsu } from './answers.js';
import cardOutcomes from '../../tables/sandbox/card-outcomes.json' with { type: 'json' };
import { makeKeyPair, qrInstant } from './wallet-keys.js';
import { applyCancellation } from './wallet-cancel.js';
import { business, err, jsonObject } from './wallet-requests.js';
import { recordTerminalSale } from './wallet-sale.js';

const WALLET_SCOPES = ['qrcode_write', 'qrcode_read'];
/** 81.02 codes the sandbox authorizes: credit on demand, store and administrator installments. */
/** 62.05, the reference label: up to 25 characters, "Unique transaction code" (seed 000, the wallet layout, line 147). */
const REFERENCE_LABEL = /^[A-Za-z0-9]{1,25}$/;
/** A static code: 00 then 01 = 11 (the point of initiation method; a dynamic code says 12). */
const staticCode = (text: string): boolean => text.startsWith('000201010211');

/**
 * How long a code stays payable: the terminal's validity (81.01 + `qrValidityMs`), or for a code the
 * host made (an e-commerce QR sale) the scenario's `hostQrValidityMs` when set, since the host's own
 * validity is unpublished (QR_V4 355) and the sale stays `Status 12` until paid (ECOMMERCE 2584).
 */
function payableForMs(ctx: SandboxContext, hostMade: boolean): number {
  const host = scenario(ctx).hostQrValidityMs;
  return hostMade && host > 0 ? host : ctx.options.qrValidityMs;
}
const CREDIT_MODALITIES = ['0002', '0004', '0008'];

interface WalletKey {
  keyId: string;
  publicKey: string;
  privateKeyPem: string;
  expiresAt: number;
}

/**
 * The wallet-facing QR API (000): token (JSON and form), rotating RSA public key, card payment
 * and QR parsing. Keys live in memory: a restart rotates them, and a wallet holding an old
 * `key_id` gets 412 `001` and fetches the new one, as with any expired key.
 */
export class WalletApi {
  readonly #ctx: SandboxContext;
  readonly #keys = new Map<string, WalletKey>();
  #current: WalletKey | undefined;
  #spare: Promise<{ publicKey: string; privateKeyPem: string }> | undefined;

  constructor(ctx: SandboxContext) {
    this.#ctx = ctx;
  }

  /** Starts making the next key (a wallet asks for a token before the key). */
  #prepare(): void {
    if (this.#spare) return;
    this.#spare = makeKeyPair();
    this.#spare.catch(() => undefined);
  }

  /** The current key, rotated when expired. Keys are made off the event loop, one ahead. */
  async #key(): Promise<WalletKey> {
    const now = this.#ctx.clock.now().getTime();
    if (!this.#current || this.#current.expiresAt <= now) {
      const pair = await (this.#spare ?? makeKeyPair());
      this.#spare = makeKeyPair();
      this.#spare.catch(() => undefined);
      this.#current = {
        keyId: newUuid(),
        publicKey: pair.publicKey,
        privateKeyPem: pair.privateKeyPem,
        expiresAt: this.#ctx.clock.now().getTime() + this.#ctx.options.walletKeyTtlMs,
      };
      this.#keys.set(this.#current.keyId, this.#current);
    }
    return this.#current;
  }

  /** `POST /v2/oauth/access-token` (JSON) and `POST /v2/oauth/token` (form). */
  token(req: SandboxRequest, form: boolean): Answer {
    let grant: unknown;
    let scopes: unknown;
    if (form) {
      const f = formBody(req);
      grant = f.get('grant_type');
      scopes = f.get('scopes') ?? f.get('scope') ?? undefined;
    } else {
      const b = jsonObject(req);
      grant = b.grant_type;
      scopes = b.scopes ?? b.scope;
    }
    if (!credentialsOk(basicCredentials(req.headers.authorization))) throw err(401, 'client authentication failed');
    if (grant !== 'client_credentials')
      throw err(400, 'grant_type must be client_credentials', { problems: ['grant_type: must be client_credentials'] });
    const asked = typeof scopes === 'string' ? scopes.split(/[\s,]+/).filter((s) => s !== '') : [];
    const unknown = asked.filter((s) => !WALLET_SCOPES.includes(s));
    if (unknown.length > 0)
      throw err(400, `unknown scope ${unknown.join(',')}`, { problems: [`scopes: unknown ${unknown.join(',')}`] });
    this.#prepare();
    return { status: 200, body: issueToken(this.#ctx, 'wallet', asked.length > 0 ? asked : WALLET_SCOPES) };
  }

  #requireToken(req: SandboxRequest, scope: 'qrcode_read' | 'qrcode_write'): void {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m) throw err(401, 'Authorization: Bearer token is required');
    const row = this.#ctx.db
      .prepare(`SELECT api, scopes, expires_at FROM tokens WHERE token_hash = ?`)
      .get(hashToken(m[1] as string)) as { api: string; scopes: string; expires_at: number } | undefined;
    if (!row || row.api !== 'wallet' || row.expires_at <= this.#ctx.clock.now().getTime())
      throw err(401, 'token is not valid or expired');
    if (!row.scopes.split(' ').includes(scope)) throw err(403, `token lacks the scope ${scope}`);
  }

  /** `GET /padraoq/v1/publicKey`. `expires_in` is in seconds (the document leaves the unit open). */
  async publicKey(req: SandboxRequest): Promise<Answer> {
    this.#requireToken(req, 'qrcode_read');
    const k = await this.#key();
    return {
      status: 200,
      body: {
        public_key: k.publicKey,
        key_id: k.keyId,
        expires_in: Math.max(0, Math.floor((k.expiresAt - this.#ctx.clock.now().getTime()) / 1000)),
      },
    };
  }

  /** `GET /padraoq/v1/parsedQRCode?qrcode=…`. */
  parse(req: SandboxRequest): Answer {
    this.#requireToken(req, 'qrcode_read');
    const text = req.query.get('qrcode') ?? req.query.get('qr_code');
    if (!text) throw business(400, '412.104', 'qrcode');
    if (staticCode(text)) throw business(412, '412.002');
    let parsed;
    try {
      parsed = parseQr(text);
    } catch (e) {
      throw business(422, '422.002', (e as Error).message);
    }
    // 412 002 "QRCode dinâmico esperado" (QR_V4 150): a static code (01 = 11) or a Pix code is refused here too.
    if (parsed.model === 'pix' || parsed.qrcode_data.point_of_initiation_method !== '12')
      throw business(412, '412.002');
    return { status: 200, body: { qrcode_data: parsed.qrcode_data } };
  }

  /** `POST /padraoq/v1/payment/card`. */
  pay(req: SandboxRequest): Answer {
    this.#requireToken(req, 'qrcode_write');
    const body = jsonObject(req);
    const str = (k: string): string | undefined => {
      const v = body[k];
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    // Required ("Sim") as the manual's table marks them (QR_V4 248-253): key_id, card_data, payee_document, qrcode;
    // payee_name and authorization_token are "Não". The first missing field answers with its published code.
    const keyId = str('key_id');
    if (!keyId) throw business(400, '412.101');
    const cardData = str('card_data');
    if (!cardData) throw business(400, '412.102');
    const qr =
      typeof body.qrcode === 'string' && body.qrcode !== ''
        ? body.qrcode
        : typeof body.qr_code === 'string' && body.qr_code !== ''
          ? body.qr_code
          : undefined;
    if (!qr) throw business(400, '412.104');
    const payer = str('payee_document');
    if (!payer || !/^(\d{11}|\d{14})$/.test(payer)) throw business(422, '412.155');
    if (payer.length === 11 && !isValidCpf(payer)) throw business(400, '412.156');
    if (payer.length === 14 && !isValidCnpj(payer)) throw business(400, '412.157');
    if (body.payee_name !== undefined && body.payee_name !== null && typeof body.payee_name !== 'string')
      throw err(400, 'payee_name: must be a string');
    if (
      body.authorization_token !== undefined &&
      body.authorization_token !== null &&
      typeof body.authorization_token !== 'string'
    )
      throw err(400, 'authorization_token: must be a string or null');

    const key = this.#keys.get(keyId);
    const now = this.#ctx.clock.now();
    if (!key || key.expiresAt <= now.getTime()) {
      // QR_V4 149 prints the reason as "001"; the payment table writes its codes as "412.1xx": the scenario picks the form.
      if (scenario(this.#ctx).walletKeyCode === '001')
        throw new Refusal(412, { code: '001', description: 'Chave expirada' });
      throw business(412, '412.001', 'fetch the public key again');
    }

    if (staticCode(qr)) throw business(412, '412.002');
    let parsed;
    try {
      parsed = parseQr(qr);
    } catch (e) {
      throw business(422, '422.002', (e as Error).message);
    }
    if (parsed.model === 'pix' || parsed.qrcode_data.point_of_initiation_method !== '12')
      throw business(412, '412.002');
    const code = parsed;
    const data = code.qrcode_data;
    const merchantNumber = data.merchant_account_information.id_merchant;
    const terminalId = data.merchant_account_information.id_terminal;
    const merchantId = merchantByNumber(this.#ctx, merchantNumber);
    if (merchantId === undefined) throw business(422, '422.002', '26.01 is not a registered merchant');
    if (!terminalExists(this.#ctx, merchantId, terminalId))
      throw business(422, '422.002', '26.02 is not a registered terminal');
    const issuedAt = qrInstant(data.payment_information.timestamp);
    if (issuedAt === undefined) throw business(422, '422.002', '81.01 is not a date');
    const transactionType = data.payment_information.tipo_de_transacao;
    // The host pays only codes it registered (QR_V4 343-345, 422.002): the e-commerce QR sales; a code
    // the terminal built is payable only where the acquirer registers such codes (registersTerminalQr).
    const registered =
      this.#ctx.db
        .prepare(`SELECT 1 FROM ecommerce_sales WHERE reference_label = ?`)
        .get(data.additional_data_field.reference_label) !== undefined;
    if (now.getTime() > issuedAt + payableForMs(this.#ctx, registered)) throw business(422, '422.003');
    if (!registered && !scenario(this.#ctx).registersTerminalQr) {
      ledgerEntry(this.#ctx, {
        kind: 'wallet-unregistered-code',
        merchantOrderId: data.additional_data_field.reference_label,
        note: 'a terminal-built code: the host has no record of generating it',
      });
      throw business(422, '422.002', 'the host has no record of generating this QR code');
    }
    if (!registered) {
      ledgerEntry(this.#ctx, {
        kind: 'wallet-terminal-code',
        merchantOrderId: data.additional_data_field.reference_label,
        note: 'a terminal-built code paid under the registersTerminalQr scenario',
      });
    }
    if (transactionType !== '01' && transactionType !== '02')
      throw business(422, '422.002', `81.04 is ${transactionType}, neither a sale (01) nor a cancellation (02)`);

    let card;
    try {
      card = decryptCardData(key.privateKeyPem, cardData);
    } catch {
      throw business(422, '422.007', 'card_data does not decrypt');
    }
    if (!/^\d{12,19}$/.test(card.card_number) || !isLuhnValid(card.card_number))
      throw business(422, '422.004', 'card_number');
    if (!/^\d{4}$/.test(card.card_expiration_date) || !/^\d{3,4}$/.test(card.card_cvv))
      throw business(422, '422.004', 'card_expiration_date or card_cvv');
    const mm = Number(card.card_expiration_date.slice(0, 2));
    const yy = Number(card.card_expiration_date.slice(2));
    const today = localTime(now, HOST_TIME_ZONE);
    if (mm < 1 || mm > 12 || 2000 + yy < today.year || (2000 + yy === today.year && mm < today.month))
      throw business(422, '422.004', 'card_expiration_date is before this month');
    // A cancellation code voids the sale it names (wallet-cancel.ts).
    if (transactionType === '02')
      return applyCancellation(this.#ctx, code, data.additional_data_field.reference_label, payer, card);
    const modality = data.payment_information.modalidade;
    if (modality === '0001') throw business(422, '422.001', 'modality 0001 (debit)');
    if (!CREDIT_MODALITIES.includes(modality)) throw business(422, '422.001', `modality ${modality}`);
    if (!(Number(data.transaction_amount) > 0))
      throw business(422, '422.002', '54 transaction amount must be above zero');

    const label = data.additional_data_field.reference_label;
    const previous = this.#ctx.db
      .prepare(`SELECT payer_document, answer FROM wallet_payments WHERE reference_label = ?`)
      .get(label) as { payer_document: string; answer: string } | undefined;
    if (previous) {
      if (previous.payer_document !== payer) throw err(409, 'payment resubmitted with a different payer document');
      return { status: 200, body: JSON.parse(previous.answer) as unknown };
    }
    const digit = card.card_number.at(-1) as keyof typeof cardOutcomes.byLastDigit;
    const row = cardOutcomes.byLastDigit[digit];
    if (row.result === 'declined') throw business(422, '422.006', row.returnCode);

    const amount = Math.round(Number(data.transaction_amount) * 100);
    const ecommerce = this.#ctx.db
      .prepare(`SELECT payment_id FROM ecommerce_sales WHERE reference_label = ?`)
      .get(label) as { payment_id: string } | undefined;
    let ecRow: EcommerceRow | undefined;
    if (ecommerce) {
      ecRow = findEcommerce(this.#ctx, ecommerce.payment_id);
      if (!ecRow || ecRow.status !== 12) throw business(422, '422.002', 'the sale is not awaiting payment');
    } else if (!REFERENCE_LABEL.test(label)) {
      throw business(422, '422.002', '62.05 must be 1 to 25 letters and digits');
    } else if (findSaleByOrderId(this.#ctx, label)) {
      throw err(409, 'payment resubmitted: the MerchantOrderId already has a sale');
    }
    const authorizationCode = String(100000 + Math.floor(Math.random() * 900000));
    const hostNsu = nextNsu(this.#ctx);
    const answer = {
      reference_label: label,
      merchant_id: merchantNumber,
      terminal_id: terminalId,
      authorization_code: authorizationCode,
      authentication_code: null,
      host_nsu: hostNsu,
      terminal_nsu: (code.fields as { nsu?: string }).nsu ?? '',
      timestamp: data.payment_information.timestamp,
      card_scheme: card.card_number.startsWith('4') ? 'VISA' : card.card_number.startsWith('5') ? 'MASTERCARD' : 'ELO',
    };
    this.#ctx.db.transaction(() => {
      let paymentId: string | null = null;
      if (ecRow) markQrPaid(this.#ctx, ecRow, { authorizationCode, nsu: hostNsu });
      else
        paymentId = recordTerminalSale(
          this.#ctx,
          code,
          label,
          { merchantId, terminalId },
          amount,
          authorizationCode,
          hostNsu,
          card.card_number,
        );
      this.#ctx.db
        .prepare(
          `INSERT INTO wallet_payments (id, reference_label, payer_document, card_match, amount, payment_id, ecommerce_payment_id, answer, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          newUuid(),
          label,
          payer,
          cardMatch(card.card_number),
          amount,
          paymentId,
          ecRow?.payment_id ?? null,
          JSON.stringify(answer),
          now.getTime(),
        );
    })();
    return { status: 200, body: answer };
  }
}

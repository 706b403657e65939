import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { readXml, textAt, child, XmlSyntaxError, type XmlElement } from '../../core/index.js';
import { changeMessage } from './changes.js';
import { ERRO, Ws15Refusal } from './erros.js';
import { erroReply, tokenReply, transacaoReply, type Ws15Transaction } from './replies.js';
import { ws15Ledger, type Ws15LedgerRow } from './ledger.js';
import { amountAuthorizes, CAPTURE_DAYS, directEci, MIN_INSTALLMENT_CENTS, TEST_STORE, testCard } from './test-data.js';
import { validateMessage } from './validate.js';
import { Ws15Tokens, Ws15Transactions, ws15Secret } from './store.js';
import type { Db } from '../db.js';

/**
 * The webservice 1.5's host model: one message in (already decoded), one answer out, as the manual
 * describes the service (`ws15:N` as fields.ts says). Every message is checked field by field
 * against the manual's tables (fields.ts, `erro` 1), then against its rules, each refused with its
 * published `erro` code; nothing a client sends throws out of `answer`. Its transactions and tokens are
 * kept in the sandbox's database when it has one (store.ts), in its memory otherwise.
 */
export interface Ws15HostOptions {
  now?: () => Date;
  /** The sandbox's database: the transactions kept there (store.ts); absent, in memory only. */
  db?: Db;
  /** More stores than the manual's test store (ws15:1528), e.g. a test's own. */
  stores?: readonly { affiliation: string; key: string }[];
}

export class Ws15Host {
  readonly now: () => Date;
  readonly #stores: readonly { affiliation: string; key: string }[];
  /** Per host: the key of `pan` and of the tokens (the same card gives the same token, ws15:987). */
  readonly #secret: Buffer;
  readonly transactions: Ws15Transactions;
  /** token → what a sale needs of the card it stands for, and the store it belongs to (ws15:986). */
  readonly tokens: Ws15Tokens;

  constructor(options: Ws15HostOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.#stores = [TEST_STORE, ...(options.stores ?? [])];
    this.#secret = ws15Secret(options.db);
    this.transactions = new Ws15Transactions(options.db);
    this.tokens = new Ws15Tokens(options.db);
  }

  /** Every transaction as the host holds it now (ledger.ts): what the chaos run reconciles against. */
  ledger(): Ws15LedgerRow[] {
    return ws15Ledger(this, CAPTURE_DAYS);
  }

  /** The answer's XML text for one message. */
  answer(message: string): string {
    let root: XmlElement;
    try {
      root = readXml(message);
    } catch (e) {
      if (e instanceof XmlSyntaxError)
        return erroReply(ERRO.invalidMessage.code, `O XML informado nao e valido: ${e.message}`);
      throw e;
    }
    const verdict = validateMessage(root);
    if (!verdict.ok)
      return erroReply(ERRO.invalidMessage.code, `O XML informado nao e valido: ${verdict.path}: ${verdict.why}`);
    try {
      return this.#handle(root);
    } catch (e) {
      if (e instanceof Ws15Refusal) return erroReply(ERRO[e.erro].code, e.message);
      throw e;
    } finally {
      this.transactions.flush();
    }
  }

  #handle(root: XmlElement): string {
    const affiliation = this.credential(root);
    const id = root.attributes.id as string;
    const versao = root.attributes.versao as string;
    if (root.name === 'requisicao-transacao') return transacaoReply(this.#create(root, affiliation), id, versao);
    if (root.name === 'requisicao-token') return tokenReply(this.#tokenFor(root, affiliation), id, versao);
    return changeMessage(this, root, affiliation);
  }

  /** `dados-ec` against the stores (erro 2, ws15:730); the key as sent, less a pretty-printer's white space. */
  credential(root: XmlElement): string {
    const numero = textAt(root, 'dados-ec', 'numero') ?? '';
    const chave = textAt(root, 'dados-ec', 'chave') ?? '';
    if (!this.#stores.some((s) => s.affiliation === numero && s.key === chave))
      throw new Ws15Refusal('credentials', `store ${numero}`);
    return numero;
  }

  digest(what: string): string {
    return createHmac('sha256', this.#secret).update(what).digest('base64');
  }

  /** A TID of 20 characters, the affiliation's first ten digits first, as the manual's (ws15:430). */
  newTid(affiliation: string): string {
    for (;;) {
      const tid = `${affiliation.padStart(10, '0').slice(0, 10)}${randomBytes(3).toString('hex').toUpperCase()}1001`;
      if (!this.transactions.has(tid)) return tid;
    }
  }

  #tokenFor(root: XmlElement, affiliation: string): { code: string; truncated: string } {
    const number = textAt(root, 'dados-portador', 'numero') ?? '';
    if (number === '') throw new Ws15Refusal('tokenWithoutNumber', 'dados-portador/numero');
    if ((textAt(root, 'dados-portador', 'validade') ?? '') === '')
      throw new Ws15Refusal('tokenWithoutExpiry', 'dados-portador/validade');
    return this.saveToken(affiliation, number);
  }

  saveToken(affiliation: string, number: string, bandeira?: string): { code: string; truncated: string } {
    const code = this.digest(`token:${affiliation}:${number}`);
    const test = testCard(number)?.bandeira;
    const pan = this.digest(`pan:${number}`);
    this.tokens.set(code, {
      affiliation,
      pan,
      ...(test ? { testBandeira: test } : {}),
      ...(bandeira ? { bandeira } : {}),
    });
    return { code, truncated: `${number.slice(0, 6)}******${number.slice(-4)}` };
  }

  /**
   * The card of a sale: typed, or the token's (never both: ws15:368, erros 51 and 54), as what the sale
   * needs of it: its keyed digest, and the scheme of the manual's test card it is.
   */
  #payer(
    root: XmlElement,
    affiliation: string,
    mode: string,
  ): { pan: string; testBandeira?: string | undefined; number?: string; token?: string } {
    const portador = child(root, 'dados-portador');
    const number = textAt(portador, 'numero') ?? '';
    const token = textAt(portador, 'token') ?? '';
    if (number !== '' && token !== '')
      throw new Ws15Refusal(mode === '4' ? 'recurrenceInvalid' : 'tokenTransactionInvalid', 'a token and a card');
    if (token !== '') {
      const saved = this.tokens.get(token);
      if (!saved || saved.affiliation !== affiliation) throw new Ws15Refusal('tokenInvalid', 'unknown to this store');
      if (textAt(root, 'forma-pagamento', 'produto') !== '1')
        throw new Ws15Refusal(
          mode === '4' ? 'recurrentInvalid' : 'tokenTransactionInvalid',
          'credit at sight only (ws15:1056, 1089)',
        );
      return { pan: saved.pan, testBandeira: saved.testBandeira, token };
    }
    if (number === '')
      throw new Ws15Refusal(mode === '4' ? 'recurrentInvalid' : 'directWithoutCard', 'dados-portador/numero');
    this.#securityCode(portador, root);
    return { pan: this.digest(`pan:${number}`), testBandeira: testCard(number)?.bandeira, number };
  }

  /** `indicador` and `codigo-seguranca` (ws15:365-366; erros 17 and 18, ws15:740-741). */
  #securityCode(portador: XmlElement | undefined, root: XmlElement): void {
    const indicador = textAt(portador, 'indicador');
    const code = textAt(portador, 'codigo-seguranca');
    if (textAt(portador, 'validade') === undefined || indicador === undefined)
      throw new Ws15Refusal(
        'invalidMessage',
        'dados-portador/validade and indicador are required with a card (ws15:364-365)',
      );
    if (indicador === '1' && code === undefined) throw new Ws15Refusal('securityCodeMissing', 'indicador 1');
    if (indicador !== '1' && code !== undefined)
      throw new Ws15Refusal('indicatorInconsistent', `indicador ${indicador}`);
    if (textAt(root, 'forma-pagamento', 'bandeira') === 'amex' && code === undefined)
      throw new Ws15Refusal('securityCodeMissing', 'always required for Amex (ws15:740)');
  }

  /** The modes the sandbox's store is enabled for, and the product's rules. */
  #mode(root: XmlElement): string {
    const mode = textAt(root, 'autorizar') as string;
    const produto = textAt(root, 'forma-pagamento', 'produto');
    const parcelas = Number(textAt(root, 'forma-pagamento', 'parcelas'));
    // Authentication needs the issuer's page in the buyer's browser (ws15:504-537): not played here.
    if (mode !== '3' && mode !== '4')
      throw new Ws15Refusal('modeNotEnabled', `autorizar ${mode}: authentication is not played by the sandbox`);
    if (produto === 'A')
      throw new Ws15Refusal(
        mode === '4' ? 'recurrentInvalid' : 'directInvalid',
        'debit needs authentication (ws15:851, 1166)',
      );
    if (mode === '4' && produto !== '1') throw new Ws15Refusal('recurrentInvalid', 'credit at sight only (ws15:896)');
    if ((produto === '1') !== (parcelas === 1))
      throw new Ws15Refusal('installments', `produto ${produto}, parcelas ${parcelas} (ws15:391)`);
    if (textAt(root, 'dados-pedido', 'moeda') !== '986')
      throw new Ws15Refusal('modeNotEnabled', 'the store takes reais only (ws15:383)');
    return mode;
  }

  #create(root: XmlElement, affiliation: string): Ws15Transaction {
    const mode = this.#mode(root);
    const payer = this.#payer(root, affiliation, mode);
    const amountCents = Number(textAt(root, 'dados-pedido', 'valor'));
    const bandeira = textAt(root, 'forma-pagamento', 'bandeira') as string;
    const parcelas = Number(textAt(root, 'forma-pagamento', 'parcelas'));
    const at = this.now();
    // The amount's cents choose, with no return code published (ws15:1530); a card outside the test
    // table is declined as "Cartão inválido" (lr 14, ws15:626); a Visa installment under R$ 5,00 as
    // "Valor da prestação inválido" (lr 23, ws15:393, 631).
    const decline: { lr?: string } | undefined =
      payer.testBandeira !== bandeira
        ? { lr: '14' }
        : !amountAuthorizes(amountCents)
          ? {}
          : bandeira === 'visa' && amountCents / parcelas < MIN_INSTALLMENT_CENTS
            ? { lr: '23' }
            : undefined;
    const capture = textAt(root, 'capturar') === 'true';
    const status = decline !== undefined ? 5 : capture ? 6 : 4;
    const t: Ws15Transaction = {
      tid: this.newTid(affiliation),
      affiliation,
      orderNumber: textAt(root, 'dados-pedido', 'numero') as string,
      amountCents,
      pan: payer.pan,
      pedido: child(root, 'dados-pedido') as XmlElement,
      pagamento: child(root, 'forma-pagamento') as XmlElement,
      bandeira,
      status,
      createdAt: at,
      eci: directEci(bandeira),
      authorization:
        decline === undefined
          ? {
              codigo: status,
              mensagem: 'Transação autorizada',
              at,
              lr: '00',
              arp: String(randomInt(100000, 1000000)),
              nsu: String(randomInt(100000, 1000000)),
            }
          : { codigo: 5, mensagem: 'Autorização negada', at, ...decline, nsu: String(randomInt(100000, 1000000)) },
      ...(status === 6 ? { capture: { at, cents: amountCents } } : {}),
      cancellations: [],
    };
    // gerar-token: "independente do resultado da autorização" (ws15:988).
    if (textAt(root, 'gerar-token') === 'true' && payer.number !== undefined)
      t.token = this.saveToken(affiliation, payer.number, bandeira);
    this.transactions.set(t.tid, t);
    return t;
  }
}

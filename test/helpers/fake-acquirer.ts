import type {
  AcquirerBackend,
  AcquirerDeliveryPort,
  PixCreatePort,
  QrCodePort,
  SaleAuthorizationPort,
  VoidDeliveryPort,
  VoidHostPort,
  WalletCancellationPort,
} from '../../src/engine/index.js';

/**
 * A fake acquirer that is a real `AcquirerBackend` (src/engine/ports.ts): every port the engines and
 * the outbox call, answering only what a test scripted, and keeping the history of every call. The
 * idea is undici's MockAgent (lib/mock/mock-agent.js: the test double *is* a dispatcher; an
 * interceptor answers once unless told `times(n)` or `persist()`; a request nobody intercepts fails
 * once the network is disabled; `assertNoUnusedInterceptors` names what was scripted and not asked):
 * here the double is the engine's port, and a call nobody scripted rejects, naming the call.
 *
 *   const host = new FakeAcquirer();
 *   host.on('delivery.queryByOrderId').persist().reply({ kind: 'not-ours', reason: '…' });
 *   host.on('delivery.undo').reply({ action: 'done', reason: 'undone' });
 *   … run the engine or the outbox on `host` (or on `host.delivery`) …
 *   expect(host.calledWith('delivery.undo')).toEqual([['pid-1']]);
 *   host.assertNoUnusedAnswers();
 */

/** Every port method of the backend, as `port.method` (the optional ones included). */
type Methods = {
  'sales.authorize': SaleAuthorizationPort['authorize'];
  'delivery.confirm': AcquirerDeliveryPort['confirm'];
  'delivery.undo': AcquirerDeliveryPort['undo'];
  'delivery.undoByOrderId': AcquirerDeliveryPort['undoByOrderId'];
  'delivery.queryByOrderId': AcquirerDeliveryPort['queryByOrderId'];
  'delivery.cancelPending': NonNullable<AcquirerDeliveryPort['cancelPending']>;
  'voids.void': VoidHostPort['void'];
  'voids.confirmVoid': VoidDeliveryPort['confirmVoid'];
  'voids.undoVoid': VoidDeliveryPort['undoVoid'];
  'voids.undoVoidByMerchantVoidId': VoidDeliveryPort['undoVoidByMerchantVoidId'];
  'voids.saleState': NonNullable<VoidDeliveryPort['saleState']>;
  'walletCancellations.applied': WalletCancellationPort['applied'];
  'qrCodes.issue': QrCodePort['issue'];
  'pix.create': PixCreatePort['create'];
  'pix.status': PixCreatePort['status'];
  'pix.void': PixCreatePort['void'];
  'initialization.download': AcquirerBackend['initialization']['download'];
  probe: AcquirerBackend['probe'];
};
export type FakeCallName = keyof Methods;
type ArgsOf<K extends FakeCallName> = Parameters<Methods[K]>;
type AnswerOf<K extends FakeCallName> = Awaited<ReturnType<Methods[K]>>;

/** One call the fake received, in order. */
export interface FakeCall {
  readonly name: FakeCallName;
  readonly args: readonly unknown[];
}

interface Answer {
  readonly name: FakeCallName;
  readonly when: (args: readonly unknown[]) => boolean;
  readonly answer: (args: readonly unknown[]) => unknown;
  readonly fails: boolean;
  /** Calls it still answers; Infinity once persisted. */
  left: number;
  used: number;
}

/** A scripted answer being written: which calls it matches, how often, then what it answers. */
export class Scripted<K extends FakeCallName> {
  #times = 1;
  #when: (args: ArgsOf<K>) => boolean = () => true;

  constructor(
    private readonly name: K,
    private readonly add: (a: Answer) => void,
  ) {}

  /** Answers only calls whose arguments pass `when` (e.g. one payment id). */
  matching(when: (...args: ArgsOf<K>) => boolean): this {
    this.#when = (args) => when(...args);
    return this;
  }

  /** Answers the next `n` matching calls. */
  times(n: number): this {
    this.#times = n;
    return this;
  }

  /** Answers every matching call from now on. */
  persist(): this {
    this.#times = Infinity;
    return this;
  }

  /**
   * The answer (or a function of the call's arguments that makes it, or a promise of it: a host that
   * answers when the test lets it, like MockAgent's `delay`).
   */
  reply(answer: AnswerOf<K> | ((...args: ArgsOf<K>) => AnswerOf<K> | Promise<AnswerOf<K>>)): void {
    const make = typeof answer === 'function' ? (answer as (...a: unknown[]) => unknown) : () => answer;
    this.#push((args) => make(...args), false);
  }

  /** The call rejects with `error` (a host that did not answer, a transport failure). */
  replyWithError(error: Error): void {
    this.#push(() => error, true);
  }

  #push(answer: (args: readonly unknown[]) => unknown, fails: boolean): void {
    const when = this.#when;
    this.add({
      name: this.name,
      when: (args) => when(args as ArgsOf<K>),
      answer,
      fails,
      left: this.#times,
      used: 0,
    });
  }
}

export interface FakeAcquirerOptions {
  /** The backend's `kind` (default `fake`). */
  kind?: string;
  /** The backend has Pix (default true). */
  pix?: boolean;
  /** The backend registers wallet QR codes (`qrCodes`; default: absent, the terminal builds its own). */
  qrProvider?: 'terminal' | 'ecommerce';
  /** The delivery port has `cancelPending` (an acquirer that holds a sale per code; default false). */
  cancelPending?: boolean;
  /** The void delivery port has `saleState` (default false). */
  saleState?: boolean;
}

export class FakeAcquirer implements AcquirerBackend {
  readonly kind: string;
  readonly sales: SaleAuthorizationPort;
  readonly delivery: AcquirerDeliveryPort;
  readonly voids: VoidHostPort & VoidDeliveryPort;
  readonly walletCancellations: WalletCancellationPort;
  readonly qrCodes: QrCodePort | undefined;
  readonly pix: PixCreatePort | undefined;
  readonly initialization: AcquirerBackend['initialization'];
  /** Every call received, in order. */
  readonly history: FakeCall[] = [];
  readonly #answers: Answer[] = [];

  constructor(o: FakeAcquirerOptions = {}) {
    this.kind = o.kind ?? 'fake';
    const call =
      <K extends FakeCallName>(name: K) =>
      (...args: ArgsOf<K>): Promise<AnswerOf<K>> =>
        this.#call(name, args) as Promise<AnswerOf<K>>;
    this.sales = { authorize: call('sales.authorize') };
    this.delivery = {
      confirm: call('delivery.confirm'),
      undo: call('delivery.undo'),
      undoByOrderId: call('delivery.undoByOrderId'),
      queryByOrderId: call('delivery.queryByOrderId'),
      ...(o.cancelPending ? { cancelPending: call('delivery.cancelPending') } : {}),
    };
    this.voids = {
      void: call('voids.void'),
      confirmVoid: call('voids.confirmVoid'),
      undoVoid: call('voids.undoVoid'),
      undoVoidByMerchantVoidId: call('voids.undoVoidByMerchantVoidId'),
      ...(o.saleState ? { saleState: call('voids.saleState') } : {}),
    };
    this.walletCancellations = { applied: call('walletCancellations.applied') };
    this.qrCodes = o.qrProvider ? { provider: o.qrProvider, issue: call('qrCodes.issue') } : undefined;
    this.pix =
      o.pix === false ? undefined : { create: call('pix.create'), status: call('pix.status'), void: call('pix.void') };
    this.initialization = { download: call('initialization.download') };
  }

  probe(timeoutMs: number): Promise<void> {
    return this.#call('probe', [timeoutMs]) as Promise<void>;
  }

  /** Scripts an answer to `name` (once, unless `times` or `persist` says otherwise). */
  on<K extends FakeCallName>(name: K): Scripted<K> {
    return new Scripted(name, (a) => this.#answers.push(a));
  }

  /**
   * Scripts a host that takes every delivery: the sale's confirm and undos and the void's confirm and undos
   * answer `answer` (persist), and the query by order id finds no sale.
   */
  deliversEverything(answer: AnswerOf<'delivery.confirm'>): this {
    for (const name of [
      'delivery.confirm',
      'delivery.undo',
      'delivery.undoByOrderId',
      'voids.confirmVoid',
      'voids.undoVoid',
      'voids.undoVoidByMerchantVoidId',
    ] as const)
      this.on(name).persist().reply(answer);
    this.on('delivery.queryByOrderId').persist().reply({ kind: 'not-found' });
    return this;
  }

  /** The arguments of every call to `name`, in order. */
  calledWith<K extends FakeCallName>(name: K): ArgsOf<K>[] {
    return this.history.filter((c) => c.name === name).map((c) => c.args as ArgsOf<K>);
  }

  /** The names of the calls received, in order (`['delivery.queryByOrderId', 'delivery.undo']`). */
  calls(): FakeCallName[] {
    return this.history.map((c) => c.name);
  }

  /** Throws, naming them, when answers scripted with `reply` (not `persist`) were not all asked for. */
  assertNoUnusedAnswers(): void {
    const unused = this.#answers.filter((a) => a.left !== Infinity && a.left > 0);
    if (unused.length)
      throw new Error(
        `the fake acquirer has ${unused.length} scripted answer(s) never asked: ${unused.map((a) => `${a.name} (${a.left} left)`).join(', ')}`,
      );
  }

  #call(name: FakeCallName, args: readonly unknown[]): Promise<unknown> {
    this.history.push({ name, args });
    const answer = this.#answers.find((a) => a.name === name && a.left > 0 && a.when(args));
    if (!answer)
      return Promise.reject(
        new Error(
          `the fake acquirer has no answer scripted for ${name}(${args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ')})`,
        ),
      );
    answer.left -= 1;
    answer.used += 1;
    let made: unknown;
    try {
      made = answer.answer(args);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return answer.fails
      ? Promise.reject(made instanceof Error ? made : new Error(String(made)))
      : Promise.resolve(made);
  }
}

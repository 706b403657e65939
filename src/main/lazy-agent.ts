import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';

const load = createRequire(import.meta.url);
/** undici's dispatcher base class alone (an EventEmitter and its compose(), 2 files). */
const DispatcherBase = load('undici/lib/dispatcher/dispatcher.js') as typeof Dispatcher;

/** Events an Agent emits, passed on as the lazy agent's own. */
const EVENTS = ['connect', 'disconnect', 'connectionError', 'drain'] as const;

/** Each of the Agent's EVENTS, emitted again by `to` (both are EventEmitters; undici types their events one by one). */
function relay(from: NodeJS.EventEmitter, to: NodeJS.EventEmitter): void {
  for (const event of EVENTS) from.on(event, (...args: unknown[]) => to.emit(event, ...args));
}

/**
 * The acquirer clients' connection pool (an undici Agent), made at the first request rather than at
 * the daemon's start (fast start: the Agent's module and the pools and clients it loads, 23 files,
 * ~15 ms of CPU on Node 22, for a daemon that may send nothing before its first sale). A Dispatcher
 * like the Agent: `dispatch` goes to the Agent (made then with `options`), its events are this
 * object's, `compose` is undici's own, and `close`/`destroy` close it if it was made.
 */
export class LazyAgent extends DispatcherBase {
  readonly #options: Agent.Options;
  #agent: Agent | undefined;

  constructor(options: Agent.Options) {
    super();
    this.#options = options;
  }

  /** Whether the Agent was made (a request was sent). */
  get made(): boolean {
    return this.#agent !== undefined;
  }

  #made(): Agent {
    if (!this.#agent) {
      const AgentClass = load('undici/lib/dispatcher/agent.js') as typeof Agent;
      const agent = new AgentClass(this.#options);
      relay(agent, this);
      this.#agent = agent;
    }
    return this.#agent;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.#made().dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = this.#agent ? this.#agent.close() : Promise.resolve();
    if (!callback) return done;
    void done.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const done = this.#agent ? this.#agent.destroy(err) : Promise.resolve();
    if (!callback) return done;
    void done.then(callback, callback);
  }
}

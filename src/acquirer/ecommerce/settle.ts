import { exchangeOf, type Exchange } from '../omni/outcomes.js';

/** A client call as an `Exchange`: its 2xx body, or what it threw (HTTP status and code, or the transport's failure). */
export async function settle<T>(call: () => Promise<T>): Promise<Exchange> {
  try {
    return { kind: 'answer', status: 200, body: await call() };
  } catch (error) {
    return exchangeOf({ error });
  }
}

/**
 * `signal`, joined by a deadline of `ms`: whichever aborts first (the deadline with a `TimeoutError`, as
 * `AbortSignal.timeout` does). Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 the
 * timeout's signal, referenced only by the joined one, is garbage-collected before it fires and the deadline
 * never comes (a held pinpad answer then holds the sale until the daemon restarts). Here the timer holds the
 * deadline's controller; unref'd, it keeps no process alive.
 */
export function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  );
  timer.unref();
  if (!signal) return deadline.signal;
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return AbortSignal.any([signal, deadline.signal]);
}

/**
 * When the outbox tries a request again: exponential backoff with jitter, capped so that a
 * request due before the daily close is tried at least `triesBeforeClose` more times before it.
 */
export interface BackoffOptions {
  /** First delay, ms. Default 1 s. */
  baseMs?: number;
  /** Longest delay, ms. Default 5 min. */
  maxMs?: number;
  /** Tries still wanted before the close. Default 3. */
  triesBeforeClose?: number;
  /** Shortest delay, ms. Default 250 ms. */
  minMs?: number;
}

/**
 * The next try after `attempts` failed attempts. `random` in [0, 1) gives the jitter (the
 * delay lands between half and all of the exponential step). `close` is the next daily close.
 */
export function nextTryAt(
  attempts: number,
  now: Date,
  close: Date,
  random: number,
  options: BackoffOptions = {},
): Date {
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 300_000;
  const min = options.minMs ?? 250;
  const tries = options.triesBeforeClose ?? 3;
  const step = Math.min(max, base * 2 ** Math.min(attempts, 30));
  let delay = step / 2 + (step / 2) * random;
  const untilClose = close.getTime() - now.getTime();
  if (untilClose > 0) delay = Math.min(delay, untilClose / (tries + 1));
  return new Date(now.getTime() + Math.max(min, Math.floor(delay)));
}

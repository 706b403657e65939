import { nextDailyClose } from '../../src/engine/daily-close.js';

const HOUR = 3_600_000;
const cache = new Map<number, number>();

/**
 * The first daily close after `at` (ms), as the engine computes it (`nextDailyClose`), remembered per
 * hour: the host's close is at a whole hour (00:00 America/Sao_Paulo), so every instant of one UTC
 * hour has the same next close. The explorer asks it thousands of times per timeline.
 */
export function closeAfter(at: number): number {
  const hour = Math.floor(at / HOUR);
  let close = cache.get(hour);
  if (close === undefined) {
    close = nextDailyClose(new Date(hour * HOUR)).getTime();
    cache.set(hour, close);
  }
  return close;
}

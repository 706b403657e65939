import { mpmChild, qrError, type MpmObject } from '../mpm.js';
import type { PadraoqModel } from './layouts.js';

const DECIMAL = /^\d+(\.\d{1,2})?$/;

function inRange(text: string, at: number, min: number, max: number): boolean {
  const n = Number(text.slice(at, at + 2));
  return n >= min && n <= max;
}

/** DDMMYYHHmmss with plausible parts. */
export function isDdmmyyhhmmss(v: string): boolean {
  return (
    /^\d{12}$/.test(v) &&
    inRange(v, 0, 1, 31) &&
    inRange(v, 2, 1, 12) &&
    inRange(v, 6, 0, 23) &&
    inRange(v, 8, 0, 59) &&
    inRange(v, 10, 0, 59)
  );
}

/** MMDDHHmmss with plausible parts. */
export function isMmddhhmmss(v: string): boolean {
  return (
    /^\d{10}$/.test(v) &&
    inRange(v, 0, 1, 12) &&
    inRange(v, 2, 1, 31) &&
    inRange(v, 4, 0, 23) &&
    inRange(v, 6, 0, 59) &&
    inRange(v, 8, 0, 59)
  );
}

function isMmdd(v: string): boolean {
  return /^\d{4}$/.test(v) && inRange(v, 0, 1, 12) && inRange(v, 2, 1, 31);
}

function value(objects: readonly MpmObject[], path: string): string | undefined {
  const [top, sub] = path.split('.') as [string, string | undefined];
  const o = mpmChild(objects, top);
  return sub === undefined ? o?.value : mpmChild(o?.children, sub)?.value;
}

/**
 * The rules that span objects, after the layout walk: amount and date formats, the second
 * scheme's copies of the merchant and terminal, sale versus cancellation in 81.04 and 82.03,
 * and 82.05–82.07 present exactly for cancellations.
 */
export function checkCrossFields(model: PadraoqModel, objects: readonly MpmObject[]): void {
  const v = (p: string): string | undefined => value(objects, p);
  if (model === 'oldest') {
    if (!isDdmmyyhhmmss(v('80.02')!)) throw qrError('80.02', 'expected a date DDMMYYHHmmss', { found: v('80.02') });
    return;
  }
  if (!DECIMAL.test(v('54')!)) throw qrError('54', 'expected a decimal amount such as 123.99', { found: v('54') });
  if (!isDdmmyyhhmmss(v('81.01')!)) throw qrError('81.01', 'expected a date DDMMYYHHmmss', { found: v('81.01') });
  if (model === 'earlier') return;
  if (v('27.02') !== v('26.01')!.slice(-15))
    throw qrError('27.02', 'expected the last 15 digits of 26.01', { found: v('27.02') });
  if (v('27.03') !== v('26.02'))
    throw qrError('27.03', 'expected the terminal logical number of 26.02', { found: v('27.03') });
  if (v('82.00') !== v('27.00'))
    throw qrError('82.00', `expected ${JSON.stringify(v('27.00'))} as in 27.00`, { found: v('82.00') });
  if (!isMmddhhmmss(v('82.01')!)) throw qrError('82.01', 'expected a date MMDDHHmmss', { found: v('82.01') });
  if (!/^[CDVO]\d\d$/.test(v('82.02')!))
    throw qrError('82.02', 'expected C, D, V or O and two digits', { found: v('82.02') });
  const cancel81 = v('81.04') === '02';
  const cancel82 = v('82.03') === '02';
  if (cancel81 && !cancel82) throw qrError('82.03', 'expected "02": 81.04 says cancellation', { found: v('82.03') });
  if (cancel82 && !cancel81) throw qrError('81.04', 'expected "02": 82.03 says cancellation', { found: v('81.04') });
  for (const id of ['82.05', '82.06', '82.07']) {
    const present = v(id) !== undefined;
    if (cancel82 && !present) throw qrError(id, 'missing (required for a cancellation)');
    if (!cancel82 && present) throw qrError(id, 'only allowed for a cancellation (82.03 = 02)');
  }
  if (cancel82 && !isMmdd(v('82.06')!)) throw qrError('82.06', 'expected a date MMDD', { found: v('82.06') });
}

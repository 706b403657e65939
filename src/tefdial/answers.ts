import { localTime } from '../core/index.js';
import type { JournalEntry } from '../store/index.js';
import type { TefDialFields } from './codec.js';

/**
 * The fields of the files omnipos writes (docs/tef-dial.md says each one's source): the status
 * file echoing the request, and the answers made from a payment as the local API shows it.
 */

export type Fields = [string, string][];

/** `009-000`: 0 is approved (every manager); the others are ours, each a reason the PDV shows `030-000` for. */
export const STATUS = {
  approved: '0',
  declined: '1',
  cancelled: '2',
  failed: '3',
  refused: '4',
} as const;

/** `010-000`: the network (acquirer) name the PDV prints and echoes in its CNF/NCN. */
export const NETWORK = 'CIELO';

/** `IntPos.Sts`: the request's header and identification echoed, written as soon as the request is read. */
export function statusFile(req: TefDialFields): Fields {
  return [
    ['000-000', req.get('000-000') ?? ''],
    ['001-000', req.get('001-000') ?? ''],
  ];
}

/** The echoed head of every answer: header, identification, fiscal document when sent. */
export function head(req: TefDialFields): Fields {
  const out: Fields = statusFile(req);
  const fiscal = req.get('002-000');
  if (fiscal !== undefined) out.push(['002-000', fiscal]);
  return out;
}

/** An answer that refuses: a status other than 0 and the operator's text. */
export function refusal(req: TefDialFields, status: string, text: string): Fields {
  return [...head(req), ['009-000', status], ['030-000', operatorText(text)]];
}

/** The operator's text: upper case, no accents the PDV's display may lack, one line of at most 80. */
export function operatorText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .toUpperCase()
    .slice(0, 80);
}

/** `022-000` (DDMMAAAA) and `023-000` (HHMMSS) in the host's time zone, from an ISO instant. */
export function dateAndTime(iso: string): Fields {
  const t = localTime(new Date(iso));
  const s = Math.floor(t.decisecondsOfDay / 10);
  const two = (n: number): string => String(n).padStart(2, '0');
  return [
    ['022-000', `${two(t.day)}${two(t.month)}${t.year}`],
    ['023-000', `${two(Math.floor(s / 3600))}${two(Math.floor(s / 60) % 60)}${two(s % 60)}`],
  ];
}

/** `028-000` and `029-xxx`: the receipt's lines for the PDV to print. */
export function receiptFields(lines: readonly string[]): Fields {
  const out: Fields = [['028-000', String(lines.length)]];
  lines.forEach((line, i) => out.push([`029-${String(i + 1).padStart(3, '0')}`, line]));
  return out;
}

/** `027-000`: what the PDV sends back in its CNF/NCN to name the sale; the sale's order id. */
export function finalization(entry: JournalEntry): string {
  return entry.merchantOrderId;
}

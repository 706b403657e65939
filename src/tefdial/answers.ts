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

/**
 * Text as PayGo's "Formato genérico" allows it in a file: ASCII 20h–7Eh only. Accents are dropped
 * (TRANSAÇÃO → TRANSACAO), dashes and quotes become their ASCII forms, anything else a space.
 */
export function asciiText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[^\x20-\x7e]/g, ' ');
}

/** The operator's text: upper case, no accents the PDV's display may lack, one line of at most 80. */
export function operatorText(text: string): string {
  return asciiText(text).toUpperCase().slice(0, 80);
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

/** `028-000` and `029-xxx`: the receipt's lines for the PDV to print, in ASCII ([PG] "Formato genérico"). */
export function receiptFields(lines: readonly string[]): Fields {
  return lineBlock('028', '029', lines);
}

/**
 * `706-000`, the PDV's capabilities (PayGo's "Capacidades da Automação", a sum of flags; [ACBr]
 * names each): 8 says the PDV prints separate copies for the customer and the merchant
 * (`712-000` to `715-xxx`). A PDV that does not say so gets `028-000`/`029-xxx` alone, as before.
 */
export const SEPARATE_COPIES = 8;

/** Whether the request's `706-000` carries the flag `flag` (absent: none; not digits: none, logged by the caller). */
export function hasCapability(req: TefDialFields, flag: number): boolean {
  const v = (req.get('706-000') ?? '').trim();
  if (!/^\d{1,6}$/.test(v)) return false;
  return (Number(v) & flag) !== 0;
}

/** A numbered block of lines: its count in `<count>-000`, each line in `<line>-001`…, none after a count of 0. */
function lineBlock(count: string, line: string, lines: readonly string[]): Fields {
  const out: Fields = [[`${count}-000`, String(lines.length)]];
  lines.forEach((l, i) => out.push([`${line}-${String(i + 1).padStart(3, '0')}`, asciiText(l)]));
  return out;
}

/**
 * The customer's (`712-000`/`713-xxx`) and the merchant's (`714-000`/`715-xxx`) copies, with
 * `737-000` saying which to print (1 the customer's, 2 the merchant's, 3 both: [ACBr]), when the
 * PDV said it prints them (`706-000` flag 8); nothing otherwise. A copy that is not made is left out
 * (its count is not written), and `737-000` names only the copies written.
 */
export function copyFields(
  req: TefDialFields,
  copies: { customer?: readonly string[] | undefined; merchant?: readonly string[] | undefined },
): Fields {
  if (!hasCapability(req, SEPARATE_COPIES)) return [];
  const { customer, merchant } = copies;
  if (!customer && !merchant) return [];
  const which = customer && merchant ? '3' : customer ? '1' : '2';
  return [
    ['737-000', which],
    ...(customer ? lineBlock('712', '713', customer) : []),
    ...(merchant ? lineBlock('714', '715', merchant) : []),
  ];
}

/** `027-000`: what the PDV sends back in its CNF/NCN to name the sale; the sale's order id. */
export function finalization(entry: JournalEntry): string {
  return entry.merchantOrderId;
}

/**
 * An independent PDV for the TEF Dial tests, written from the public layouts, never from
 * src/tefdial (it imports nothing of it): it writes its request as the PDVs do (`IntPos.tmp` in
 * the request folder, renamed `IntPos.001`, ISO-8859-1, CR LF, `999-999 = 0`), waits for
 * `IntPos.Sts` and for the answer carrying its identification (`001-000`), reads them and deletes
 * them. Sources: PayGo "Formato genérico", "Comandos existentes", "Exemplos de arquivos"; the
 * CliSiTef file interface's steps P1–P6 (docs/tef-dial.md).
 */
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkLayout } from './tefdial-layout.js';

export type PdvFields = Record<string, string>;

/** The PDV's own reader: `AAA-BBB = value` lines; quotes around a receipt line dropped. */
export function readPdvFile(bytes: Buffer): PdvFields {
  const out: PdvFields = {};
  const text = bytes.toString('latin1');
  if (!text.endsWith('999-999 = 0\r\n')) throw new Error(`an answer without its terminator: ${JSON.stringify(text)}`);
  for (const line of text.split('\r\n')) {
    if (line === '') continue;
    const m = /^(\d{3}-\d{3}) = (.*)$/.exec(line);
    if (!m) throw new Error(`a line the layout does not allow: ${JSON.stringify(line)}`);
    const v = m[2]!;
    out[m[1]!] = v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
  }
  return out;
}

/** The PDV's own writer. */
export function pdvFile(fields: [string, string][]): Buffer {
  return Buffer.from(
    [...fields.map(([k, v]) => `${k} = ${v}`), '999-999 = 0'].map((l) => `${l}\r\n`).join(''),
    'latin1',
  );
}

/** A numbered block of an answer: `<count>-000` lines, then `<line>-001`…; undefined when the count is absent. */
export function linesOf(r: PdvFields, count: string, line: string): string[] | undefined {
  const n = r[`${count}-000`];
  if (n === undefined) return undefined;
  if (!/^\d+$/.test(n)) throw new Error(`${count}-000 is no count: ${n}`);
  return Array.from({ length: Number(n) }, (_, i) => {
    const v = r[`${line}-${String(i + 1).padStart(3, '0')}`];
    if (v === undefined)
      throw new Error(`${count}-000 says ${n} lines, ${line}-${String(i + 1).padStart(3, '0')} is missing`);
    return v;
  });
}

/**
 * What a PDV prints of an answer, as PayGo's "Comprovantes" algorithm and its fields say (PayGo's
 * field list; field numbers and the `737-000` values as ACBr's PayGo client reads them):
 * `737-000` which copies to print (1 the customer's, 2 the merchant's, 3 both; absent: both);
 * the customer's from `712-000`/`713-xxx`, else the full receipt `028-000`/`029-xxx`; the
 * merchant's from `714-000`/`715-xxx`, else the full receipt.
 */
export function printedCopies(r: PdvFields): { customer: string[] | undefined; merchant: string[] | undefined } {
  const which = r['737-000'] ?? '3';
  const full = linesOf(r, '028', '029');
  const customer = linesOf(r, '712', '713');
  const merchant = linesOf(r, '714', '715');
  return {
    customer: which === '1' || which === '3' ? (customer?.length ? customer : full) : undefined,
    merchant: which === '2' || which === '3' ? (merchant?.length ? merchant : full) : undefined,
  };
}

/**
 * `706-000`, the PDV's capabilities as it declares them in each request (PayGo's "Capacidades da
 * Automação", a sum): 4 is always set; 8 asks for separate customer and merchant copies.
 */
export const CAPABILITIES = { always: 4, separateCopies: 8 } as const;

export interface Exchange {
  status: PdvFields;
  response: PdvFields | undefined;
  /** From the request's rename to IntPos.Sts seen, and to the answer seen, ms. */
  msToStatus: number;
  msToResponse: number | undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class TefPdv {
  /** The folders exist from the PDV's installation on, whether the manager runs or not. */
  constructor(
    readonly requestDir: string,
    readonly responseDir: string,
  ) {
    mkdirSync(requestDir, { recursive: true });
    mkdirSync(responseDir, { recursive: true });
  }

  /** Waits for a file of the response folder naming `id`; reads and deletes it. */
  async #await(name: string, id: string | undefined, timeoutMs: number): Promise<PdvFields | undefined> {
    const file = path.join(this.responseDir, name);
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (existsSync(file)) {
        const fields = readPdvFile(readFileSync(file));
        if (id === undefined || fields['001-000'] === id) {
          rmSync(file);
          return fields;
        }
      }
      await sleep(2);
    }
    return undefined;
  }

  /**
   * Puts the bytes in the request folder as the convention asks: a temporary name, then the rename.
   * `link`: a second name (a hard link) for the same file, kept after the manager is done with it:
   * what the disk still holds of the request.
   */
  put(bytes: Buffer, link?: string): void {
    const tmp = path.join(this.requestDir, 'IntPos.tmp');
    writeFileSync(tmp, bytes);
    if (link !== undefined) linkSync(tmp, link);
    renameSync(tmp, path.join(this.requestDir, 'IntPos.001'));
  }

  /**
   * One exchange: the request, `IntPos.Sts` within `statusMs` (the PDV gives up after a few seconds:
   * "TEF não responde"), then the answer when `answer` (CRT, CNC, ADM), within `answerMs`. The
   * request, the status file and the answer are each checked against the public field table
   * (./tefdial-layout.ts); `malformed`: a request written wrong on purpose, not checked, nor its
   * status and answer (they echo what was wrong).
   */
  async exchange(
    bytes: Buffer,
    o: { id?: string; answer: boolean; statusMs?: number; answerMs?: number; link?: string; malformed?: boolean },
  ): Promise<Exchange> {
    if (o.malformed !== true) checkLayout(readPdvFile(bytes), 'request');
    const t0 = performance.now();
    this.put(bytes, o.link);
    const status = await this.#await('IntPos.Sts', o.id, o.statusMs ?? 7000);
    if (!status) throw new Error('TEF não responde: no IntPos.Sts');
    const msToStatus = performance.now() - t0;
    if (o.malformed !== true) checkLayout(status, 'status');
    if (!o.answer) return { status, response: undefined, msToStatus, msToResponse: undefined };
    const response = await this.#await('IntPos.001', o.id, o.answerMs ?? 60_000);
    if (!response) throw new Error('no IntPos.001 answer');
    const msToResponse = performance.now() - t0;
    if (o.malformed !== true) checkLayout(response, 'answer');
    return { status, response, msToStatus, msToResponse };
  }

  send(fields: [string, string][], answer: boolean): Promise<Exchange> {
    const id = fields.find(([k]) => k === '001-000')?.[1];
    return this.exchange(pdvFile(fields), { ...(id !== undefined ? { id } : {}), answer });
  }

  /** A card sale (CRT): identification, fiscal document, amount in cents, currency 0 (real). */
  crt(id: string, amount: number, extra: [string, string][] = []): Promise<Exchange> {
    return this.send(
      [
        ['000-000', 'CRT'],
        ['001-000', id],
        // The fiscal document: n..12 (PayGo's "Detalhamento dos campos").
        ['002-000', id],
        ['003-000', String(amount)],
        ['004-000', '0'],
        ...extra,
      ],
      true,
    );
  }

  /** CNF or NCN of the sale an answer named (its 010-000, 012-000, 027-000 echoed). */
  decide(op: 'CNF' | 'NCN', id: string, sale: PdvFields): Promise<Exchange> {
    return this.send(
      [
        ['000-000', op],
        ['001-000', id],
        ['010-000', sale['010-000'] ?? ''],
        ['012-000', sale['012-000'] ?? ''],
        ['027-000', sale['027-000'] ?? ''],
      ],
      false,
    );
  }
}

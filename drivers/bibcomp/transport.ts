import { encodeFrame } from '../pinpad/index.js';
import { PPCOMP } from './library.js';
import { LibraryTransport, notification, type LibraryTransportOptions } from './library-transport.js';
import { reachOf } from './reach.js';

const ACK = 0x06;
const DC2 = 0x12;

export interface BibcompTransportOptions extends LibraryTransportOptions {
  /** Pause between two PP_GenericCmd polls that answered PROCESSING (default 20 ms). */
  pollMs?: number;
}

/** Library return codes that mean the link to the pinpad is gone (the library's own: 14-15, 30-34). */
const LINK_LOST: ReadonlySet<number> = new Set([
  PPCOMP.NOTOPEN,
  PPCOMP.PORTERR,
  PPCOMP.COMMERR,
  PPCOMP.UNKNOWNSTAT,
  PPCOMP.RSPERR,
  PPCOMP.COMMTOUT,
]);

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const n3 = (n: number): string => String(n).padStart(3, '0');

/** Whether `s` is a whole answer (§2.3.2: RSP_ID, RSP_STAT N3, then blocks each behind its N3 length). */
function wholeAnswer(s: string): boolean {
  if (!/^[A-Z]{3}\d{3}/.test(s)) return false;
  let at = 6;
  while (at < s.length) {
    const len = s.slice(at, at + 3);
    if (!/^\d{3}$/.test(len)) return false;
    at += 3 + Number(len);
  }
  return at === s.length;
}

/**
 * The ABECS driver's transport over a BibComp library (PPCOMP.H): each command packet the link
 * writes goes as C text to `PP_StartGenericCmd` and its answer comes back from polling
 * `PP_GenericCmd`, framed again for the link with the ACK the library already gave the pinpad; a
 * notification (PPCOMP_NOTIFY) reaches the link as a clear NTM, CAN becomes `PP_Abort` and its EOT.
 * What the text cannot carry never reaches the library (reach.ts): an Abecs command is answered
 * ERR010 here, as a pinpad without "Comunicação Segura" leaves them (§3.2.2), and OPN is answered as
 * such a pinpad answers it (no secure channel: the library owns the link, and sealed packets are
 * bytes), so the driver recognises the pinpad as classic. CLO is the library's PP_Close.
 *
 * Every library call runs on koffi's worker thread, one at a time (a vendor library need not be
 * thread-safe). A library error of the link (14-15, 30-34) is a disconnection: the driver fails
 * the command and reconnects (PP_Close, PP_Open). Another return code is the answer's RSP_STAT. A
 * call that does not return within `callTimeoutMs` wedges the library: the link is reported lost
 * and no further call is made, so the daemon stays up.
 */
export class BibcompTransport extends LibraryTransport {
  private gen = 0;
  private readonly pollMs: number;

  constructor(opts: BibcompTransportOptions) {
    super(opts, 'bibcomp');
    this.pollMs = opts.pollMs ?? 20;
  }

  /** Forgets the command in progress: its late answers are dropped. */
  protected stop(): void {
    this.gen++;
  }

  protected command(data: Uint8Array): void {
    const gen = ++this.gen;
    this.push(Uint8Array.of(ACK));
    if (data[0] === DC2 || data.length < 3) return this.answer(gen, 'ERR', PPCOMP.INVCALL);
    const id = latin1(data.subarray(0, 3));
    if (id === 'OPN' || id === 'CLO') return this.answer(gen, id, PPCOMP.OK);
    if (!reachOf(id).ok) return this.answer(gen, 'ERR', PPCOMP.INVCALL);
    if (data.includes(0)) return this.answer(gen, id, PPCOMP.INVPARM); // a classic command is text (§1.3)
    void this.gate
      .call('PP_StartGenericCmd', () => {
        this.counters.starts++;
        return this.opts.calls.startGeneric(data);
      })
      .then(
        (code) => (code === PPCOMP.OK ? this.poll(gen, id) : this.settle(gen, id, code)),
        (e: unknown) => this.fail(`PP_StartGenericCmd: ${(e as Error).message}`),
      );
  }

  private async poll(gen: number, id: string): Promise<void> {
    try {
      while (gen === this.gen && !this.closed && !this.failure) {
        const r = await this.gate.call('PP_GenericCmd', () => {
          this.counters.polls++;
          return this.opts.calls.pollGeneric();
        });
        if (gen !== this.gen || this.closed || this.failure) return;
        if (r.code === PPCOMP.NOTIFY) this.push(encodeFrame(notification(r.text ?? '')));
        else if (r.code === PPCOMP.OK) return this.deliver(gen, id, r.data ?? new Uint8Array());
        else if (r.code !== PPCOMP.PROCESSING) return this.settle(gen, id, r.code);
        await new Promise((res) => setTimeout(res, this.pollMs));
      }
    } catch (e) {
      this.fail(`PP_GenericCmd: ${(e as Error).message}`);
    }
  }

  /** The answer as the library gave it; one cut short by a 00h (its lengths disagree) is a broken link. */
  private deliver(gen: number, id: string, data: Uint8Array): void {
    if (!wholeAnswer(latin1(data)))
      return this.fail(`${id}: PP_GenericCmd gave ${data.length} bytes that are not a whole answer`, {
        command: id,
      });
    this.push(encodeFrame(data));
  }

  /** A return code other than OK: a lost link fails the transport; any other is the answer's RSP_STAT. */
  private settle(gen: number, id: string, code: number): void {
    if (LINK_LOST.has(code)) return this.fail(`${id}: the library answered ${code}`, { code });
    this.answer(gen, code === PPCOMP.NOFUNC ? 'ERR' : id, code === PPCOMP.NOFUNC ? PPCOMP.INVCALL : code);
  }

  private answer(gen: number, id: string, status: number): void {
    if (gen !== this.gen || this.closed || this.failure) return;
    this.push(encodeFrame(Uint8Array.from(Buffer.from(`${id}${n3(status)}`, 'latin1'))));
  }
}

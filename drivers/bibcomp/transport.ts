import { encodeFrame } from '../pinpad/index.js';
import { PPCOMP } from './library.js';
import { LibraryTransport, notification, type LibraryTransportOptions } from './library-transport.js';

const ACK = 0x06;

export interface BibcompTransportOptions extends LibraryTransportOptions {
  /** Pause between two PP_GenericCmdBin polls that answered PROCESSING (default 20 ms). */
  pollMs?: number;
  /** Pause before polling again after an answer (a sealed NTM is followed by more; default 50 ms). */
  afterAnswerMs?: number;
}

/**
 * The ABECS driver's transport contract, served by a BibComp library: the link (drivers/pinpad)
 * writes packets and control bytes as it would on a serial line; here each command packet goes
 * whole to `PP_StartGenericCmdBin`, its answer comes back from polling `PP_GenericCmdBin` and is
 * framed again for the link, with the ACK the library already gave the pinpad. CAN becomes
 * `PP_Abort` and its EOT. A clear notification the library reports (PPCOMP_NOTIFY) reaches the
 * link as an NTM packet, so the driver gives the same prompts as on the wire. Sealed packets (the
 * secure channel, in TypeScript) pass through the library untouched.
 *
 * Every library call runs on koffi's worker thread and one at a time (a vendor library need not
 * be thread-safe). A library error on a command (e.g. 31, the library lost its port) is a
 * disconnection: the driver fails the command and reconnects with PP_Close/PP_Open. A call that
 * does not return within `callTimeoutMs` wedges the library: the link is reported lost and no
 * further call is made (each would hold another worker thread), so the daemon stays up.
 */
export class BibcompTransport extends LibraryTransport {
  /** A command was started and its answers are being polled (until CAN or close). */
  private polling = false;
  private pollGen = 0;
  private readonly pollMs: number;
  private readonly afterAnswerMs: number;

  constructor(opts: BibcompTransportOptions) {
    super(opts, 'bibcomp');
    this.pollMs = opts.pollMs ?? 20;
    this.afterAnswerMs = opts.afterAnswerMs ?? 50;
  }

  protected command(data: Uint8Array): void {
    this.stop();
    const gen = this.pollGen;
    void this.gate
      .call('PP_StartGenericCmdBin', () => {
        this.counters.starts++;
        return this.opts.calls.startGeneric(data);
      })
      .then(
        (code) => {
          if (this.closed || this.failure) return;
          if (code !== PPCOMP.OK) return this.fail(`PP_StartGenericCmdBin answered ${code}`, { code });
          this.push(Uint8Array.of(ACK));
          if (gen === this.pollGen) this.startPolling();
        },
        (e: unknown) => this.fail(`PP_StartGenericCmdBin: ${(e as Error).message}`),
      );
  }

  private startPolling(): void {
    this.polling = true;
    const gen = ++this.pollGen;
    const loop = async (): Promise<void> => {
      while (this.polling && gen === this.pollGen && !this.closed && !this.failure) {
        const r = await this.gate.call('PP_GenericCmdBin', () => {
          this.counters.polls++;
          return this.opts.calls.pollGeneric();
        });
        if (gen !== this.pollGen || this.closed || this.failure) return;
        let pause = this.pollMs;
        if (r.code === PPCOMP.OK && r.data) {
          // A sealed packet may be a notification the link opens: keep listening until the next command
          // or CAN, but after a pause, so that the driver's next command finds the library free.
          this.push(encodeFrame(r.data));
          pause = this.afterAnswerMs;
        } else if (r.code === PPCOMP.NOTIFY) {
          this.push(encodeFrame(notification(r.text ?? '')));
        } else if (r.code !== PPCOMP.PROCESSING) {
          return this.fail(`PP_GenericCmdBin answered ${r.code}`, { code: r.code });
        }
        await new Promise((res) => setTimeout(res, pause));
      }
    };
    loop().catch((e: unknown) => this.fail(`PP_GenericCmdBin: ${(e as Error).message}`));
  }

  /** Stops polling: answers of the command in progress are dropped. */
  protected stop(): void {
    this.polling = false;
    this.pollGen++;
  }
}

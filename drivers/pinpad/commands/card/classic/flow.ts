import { randomBytes } from 'node:crypto';
import { PinpadError, isPinpadError } from '../../../errors.js';
import type { RunOptions } from '../../../pinpad.js';
import { isUnknownCommand, type CommandSpec } from '../../spec.js';
import { EBX } from '../ebx.js';
import { FCX, type FcxRequest, type FcxResult } from '../fcx.js';
import { GCX, type GcxRequest } from '../gcx.js';
import { GOX, type GoxRequest, type GoxResult } from '../gox.js';
import { GTK, type GtkResult } from '../gtk.js';
import { hex } from '../kit.js';
import { GPN, type GpnRequest, type PinBlockResult } from '../pin.js';
import { FNC, GOC, GTS } from './chip.js';
import { GCR, type GcrResult } from './gcr.js';

/** What the classic flow needs of the driver: Pinpad or SecurePinpad (its recognition, when it has one). */
export interface ClassicRunner {
  run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res>;
  on?(event: 'notification', listener: (n: { command: string; text: string }) => void): unknown;
  off?(event: 'notification', listener: (n: { command: string; text: string }) => void): unknown;
  readonly secure?: { readonly recognition?: string };
}

export interface ClassicCardOptions {
  /** The DUKPT data key slot EBX encrypts GCR's tracks under (configuration `pinpad.dataKeySlot`). */
  dataKeySlot: number;
  /**
   * The AID of an AID-table record (the tables in force), by network and record index. GCR names
   * the record it used but returns no EMV data; with this the read carries tag 9F06 (AID, terminal)
   * as GCX's would, so the tables can choose the product.
   */
  aidOf?: (acquirer: string, recordIndex: string) => string | undefined;
}

/** ST_TABVERDIF (§3.1.1). */
const ST_TABVERDIF = 20;

/** Why a classic pinpad without EBX cannot sell: its track would reach the terminal, and the host, only in clear. */
export const CLASSIC_TRACK_REFUSAL =
  'this pinpad answers only the classic card commands: GCR gives the track in clear (ABECS §3.6.1) and the pinpad has no EBX (§3.3.6) to encrypt it under the DUKPT data key ' +
  '(ENB encrypts only under MK/WK, §3.3.7; GEN/03/03 and DUKPT:TDES:DAT#1 left the specification in 2.10); the acquirer takes track data only as Dukpt3DesCBC: card sales refused';

/** How the classic flow answers one current-flow command: with that command's own request and answer types. */
type Serve<Req, Res> = (req: Req, opts: RunOptions) => Promise<Res>;

/**
 * The current-flow commands served the classic way, by command id. `add` is type-checked against the
 * command's spec (a handler that takes another request or gives another answer does not compile), so
 * `of` may hand the handler back typed by the spec the caller ran: an id names one command, one spec.
 */
class Served {
  readonly #by = new Map<string, Serve<never, unknown>>();

  add<Req, Res>(spec: CommandSpec<Req, Res>, serve: Serve<Req, Res>): this {
    this.#by.set(spec.id, serve);
    return this;
  }

  of<Req, Res>(spec: CommandSpec<Req, Res>): Serve<Req, Res> | undefined {
    // the one assertion: what `add` stored under spec.id was checked against that id's spec
    return this.#by.get(spec.id) as Serve<Req, Res> | undefined;
  }
}

interface HeldRead {
  acquirerIndex: string;
  read: GcrResult;
  encrypted: GtkResult;
  gtkTaken: boolean;
}

/**
 * The card commands of the current flow (GCX, GTK, GOX, FCX, GPN) served, on a pinpad that answers
 * only the classic ones, by GCR, EBX, GOC, FNC and GPN with the PAN — behind the same card port, so
 * the sale logic does not change. A pinpad is classic when its OPN answer says so (SecurePinpad's
 * recognition; §3.1.2 forbids obsolete commands to a current pinpad) or when it answers GCX as an
 * unknown command (ERR010, §2.3.4). Card data rule: GCR hands the terminal the tracks in clear; the
 * track 2 goes straight back into the pinpad (EBX, DUKPT:TDES:DAT#3 CBC, a fresh IV) and its clear
 * copy is overwritten; the result holds only the masked PAN and tracks. A pinpad without EBX is
 * refused for card sales (PINPAD_UNSUPPORTED, CLASSIC_TRACK_REFUSAL) before any card is asked.
 * The PAN stays in memory for a stripe PIN (GPN needs it: the pinpad keeps none after GCR) and is
 * overwritten after GPN, RMC or the next read.
 */
export class ClassicCardPinpad {
  readonly #inner: ClassicRunner;
  readonly #o: ClassicCardOptions;
  #learnedClassic = false;
  #ebx: boolean | undefined;
  #held: HeldRead | undefined;
  /** GCX by GTS+GCR+EBX, GTK from that read, GOX by GOC, FCX by FNC, GPN with the PAN GCR gave. */
  readonly #served = new Served()
    .add(GCX, async (req, opts) => (await this.#read(req, opts)).read.card)
    .add(GTK, () => Promise.resolve(this.#gtk()))
    .add(GOX, (req, opts) => this.#goc(req, opts))
    .add(FCX, (req, opts) => this.#fnc(req, opts))
    .add(GPN, (req, opts) => this.#gpn(req, opts));

  constructor(inner: ClassicRunner, options: ClassicCardOptions) {
    this.#inner = inner;
    this.#o = options;
  }

  on(event: 'notification', listener: (n: { command: string; text: string }) => void): this {
    this.#inner.on?.(event, listener);
    return this;
  }

  off(event: 'notification', listener: (n: { command: string; text: string }) => void): this {
    this.#inner.off?.(event, listener);
    return this;
  }

  /** True when card commands go the classic way. */
  get classic(): boolean {
    const r = this.#inner.secure?.recognition;
    if (r === 'classic') return true;
    if (r === 'abecs') return false;
    return this.#learnedClassic;
  }

  async run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts: RunOptions = {}): Promise<Res> {
    if (!this.classic) {
      if (spec.id !== 'GCX') return this.#inner.run(spec, req, opts);
      try {
        return await this.#inner.run(spec, req, opts);
      } catch (e) {
        if (!isUnknownCommand(e)) throw e;
        this.#learnedClassic = true;
      }
    }
    const serve = this.#served.of(spec);
    if (serve) return serve(req, opts);
    if (spec.id === 'RMC' || spec.id === 'CLO') this.#forget();
    return this.#inner.run(spec, req, opts);
  }

  #forget(): void {
    this.#held?.read.clear.wipe();
    this.#held = undefined;
  }

  /** Whether the pinpad encrypts with EBX: asked once (8 zero bytes; it costs one DUKPT counter). */
  async #hasEbx(opts: RunOptions): Promise<boolean> {
    if (this.#ebx !== undefined) return this.#ebx;
    try {
      await this.#inner.run(
        EBX,
        { data: new Uint8Array(8), keyIndex: this.#o.dataKeySlot, iv: new Uint8Array(8) },
        opts,
      );
      this.#ebx = true;
    } catch (e) {
      if (!isUnknownCommand(e) && !isPinpadError(e, 'PINPAD_UNSUPPORTED')) throw e;
      this.#ebx = false;
    }
    return this.#ebx;
  }

  async #read(req: GcxRequest, opts: RunOptions): Promise<HeldRead> {
    this.#forget();
    if (!(await this.#hasEbx(opts)))
      throw new PinpadError('PINPAD_UNSUPPORTED', CLASSIC_TRACK_REFUSAL, {
        command: 'GCR',
        reason: 'classic-track-in-clear',
      });
    const acquirer = req.acquirer ?? '00';
    let version = '0000000000';
    try {
      version = await this.#inner.run(GTS, acquirer, opts);
    } catch (e) {
      if (!isPinpadError(e, 'PINPAD_STATUS')) throw e;
    }
    let read: GcrResult;
    try {
      read = await this.#inner.run(
        GCR,
        {
          acquirer,
          amount: req.amount,
          date: req.date,
          time: req.time,
          tableVersion: version,
          contactless: req.contactless,
          ...(req.aidList ? { aidList: req.aidList } : {}),
        },
        opts,
      );
    } catch (e) {
      if (!isPinpadError(e, 'PINPAD_STATUS') || Number(e.context.status) !== ST_TABVERDIF) throw e;
      // §3.6.1: the tables changed between GTS and GCR; the terminal keeps the ones in force
      read = await this.#inner.run(GCR, { again: true }, opts);
    }
    const packed = read.clear.packedTrack2();
    const packed1 = read.clear.packedTrack1();
    try {
      if (!packed)
        throw new PinpadError('PINPAD_PROTOCOL', 'GCR: no track 2 to encrypt', { where: 'GCR', field: 'GCR_TRK2' });
      // one IV for the read (as one GTK), a KSN per track (GTK in CBC gives each field its own, §6.3.4.2)
      const iv = randomBytes(8);
      const t2 = await this.#inner.run(EBX, { data: packed, keyIndex: this.#o.dataKeySlot, iv }, opts);
      const t1 = packed1
        ? await this.#inner.run(EBX, { data: packed1, keyIndex: this.#o.dataKeySlot, iv }, opts)
        : undefined;
      const encrypted: GtkResult = {
        iv: hex(iv),
        track2: { data: t2.data, ksn: t2.ksn },
        ...(t1 ? { track1: { data: t1.data, ksn: t1.ksn } } : {}),
      };
      this.#held = { acquirerIndex: read.acquirerIndex, read, encrypted, gtkTaken: false };
      const rec = read.card.aidTables[0];
      const aid = rec ? this.#o.aidOf?.(rec.acquirer, rec.index) : undefined;
      if (aid && /^([0-9A-F]{2}){5,16}$/i.test(aid))
        read.card.emvData = Uint8Array.from(
          Buffer.from(`9F06${(aid.length / 2).toString(16).padStart(2, '0')}${aid}`, 'hex'),
        );
      return this.#held;
    } catch (e) {
      read.clear.wipe();
      throw e;
    } finally {
      packed?.fill(0);
      packed1?.fill(0);
      read.clear.wipeTrack();
    }
  }

  #gtk(): GtkResult {
    const h = this.#held;
    if (!h || h.gtkTaken)
      throw new PinpadError('PINPAD_STATUS', 'GTK: no classic read to take the track of (ST_INVCALL)', {
        command: 'GTK',
        status: 10,
        statusName: 'ST_INVCALL',
      });
    h.gtkTaken = true;
    return h.encrypted;
  }

  #goc(g: GoxRequest, opts: RunOptions): Promise<GoxResult> {
    const h = this.#held;
    if (!h)
      return Promise.reject(
        new PinpadError('PINPAD_STATUS', 'GOC: no classic chip read (ST_INVCALL)', {
          command: 'GOC',
          status: 10,
          statusName: 'ST_INVCALL',
        }),
      );
    return this.#inner.run(
      GOC,
      {
        amount: g.amount,
        ...(g.cashback !== undefined ? { cashback: g.cashback } : {}),
        noOfflineApproval: g.noOfflineApproval !== false,
        pinKeyIndex: g.pinKeyIndex,
        ...(g.risk ? { risk: g.risk } : {}),
        acquirerIndex: h.acquirerIndex,
        ...(g.message ? { message: g.message } : {}),
        tags: g.tags ?? [],
      },
      opts,
    );
  }

  #fnc(f: FcxRequest, opts: RunOptions): Promise<FcxResult> {
    return this.#inner.run(
      FNC,
      {
        outcome: f.outcome,
        ...(f.arc ? { arc: f.arc } : {}),
        ...(f.emvData ? { emvData: f.emvData } : {}),
        tags: f.tags ?? [],
      },
      opts,
    );
  }

  async #gpn(r: GpnRequest, opts: RunOptions): Promise<PinBlockResult> {
    const h = this.#held;
    if (!h) return this.#inner.run(GPN, r, opts);
    try {
      return await this.#inner.run(GPN, { ...r, pan: h.read.clear.pan() }, opts);
    } finally {
      h.read.clear.wipe();
    }
  }
}

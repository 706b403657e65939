import { watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseTefDial, TefDialFormatError, writeTefDial, type TefDialFields } from './codec.js';
import { blankField, readIfThere, removeDurably, moveDurably, writeWhole, VoidLedger } from './folders.js';
import { refusal, statusFile, STATUS, type Fields } from './answers.js';
import { cnc, crt, decide, SUPERVISOR_FIELD, supervisorPassword, type TefDialDeps } from './operations.js';
import { RequestFieldError } from './requests.js';
import { adm } from './admin.js';

/** The convention's file names (docs/tef-dial.md). */
export const REQUEST = 'IntPos.001';
export const STATUS_FILE = 'IntPos.Sts';
export const RESPONSE = 'IntPos.001';
/** A request taken in hand: renamed, so a crash before its answer finds it again at start. */
export const WORKING = 'IntPos.001.working';

export interface TefDialFolders {
  requestDir: string;
  responseDir: string;
  /** Where the interface keeps what the journal does not hold for it (the CNC ledger). */
  stateDir: string;
}

/** How long a request without its `999-999` is read again before it is refused: a PDV may still be writing it in place. */
const INCOMPLETE_RETRIES = 10;
const INCOMPLETE_WAIT_MS = 100;

/** Fields of a file that could not be read, for the echo of the refusal: header and identification if a line names them. */
function lenientHead(bytes: Buffer): TefDialFields {
  const text = bytes.toString('latin1');
  const pick = (key: string): string | undefined => new RegExp(`^${key} = ([^\\r\\n]*)`, 'm').exec(text)?.[1];
  const fields = new Map<string, string>();
  for (const key of ['000-000', '001-000']) {
    const v = pick(key);
    if (v !== undefined) fields.set(key, v);
  }
  return fields;
}

/**
 * The TEF Dial interface: watches the request folder (the kernel's notifications, `fs.watch`),
 * answers each `IntPos.001` with `IntPos.Sts` at once and its answer when the operation ends, one
 * request at a time, every file written whole (docs/tef-dial.md).
 */
export class TefDialInterface {
  #watcher: FSWatcher | undefined;
  #running: Promise<void> = Promise.resolve();
  #again = false;
  #busy = false;
  #stopped = false;
  readonly #abort = new AbortController();
  readonly #ledger: VoidLedger;

  constructor(
    private readonly folders: TefDialFolders,
    private readonly deps: Omit<TefDialDeps, 'ledger'>,
  ) {
    this.#ledger = new VoidLedger(path.join(folders.stateDir, 'tefdial'));
  }

  async start(): Promise<void> {
    await mkdir(this.folders.requestDir, { recursive: true });
    await mkdir(this.folders.responseDir, { recursive: true });
    await this.#ledger.open();
    this.#watcher = watch(this.folders.requestDir, (_event, name) => {
      if (name === REQUEST || name === null) this.#kick();
    });
    this.#watcher.on('error', (e) => this.deps.log.error({ err: e }, 'TEF Dial: the request folder watch failed'));
    // What a crash left in hand, then what arrived while the daemon was down: in the background, the
    // daemon's start never waits for a sale.
    this.#kick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#watcher?.close();
    this.#abort.abort();
    await this.#running;
  }

  #kick(): void {
    if (this.#stopped) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#busy = true;
    this.#running = this.#drain()
      .catch((e: unknown) => this.deps.log.error({ err: e }, 'TEF Dial: a request could not be handled'))
      .finally(() => {
        this.#busy = false;
        if (this.#again) {
          this.#again = false;
          this.#kick();
        }
      });
  }

  async #drain(): Promise<void> {
    const req = this.folders.requestDir;
    for (;;) {
      let working = await readIfThere(path.join(req, WORKING));
      if (!working) {
        const waiting = await this.#complete();
        if (!waiting) return;
        await moveDurably(req, REQUEST, WORKING);
        working = (await readIfThere(path.join(req, WORKING))) ?? waiting;
      }
      await this.#handle(working);
      // Stopped mid-operation: the request stays in hand, answered after the restart.
      if (this.#abort.signal.aborted) return;
      await removeDurably(req, WORKING);
      if (this.#stopped) return;
    }
  }

  /** The request's bytes once it reads whole (or the last try's bytes), undefined when there is none. */
  async #complete(): Promise<Buffer | undefined> {
    const file = path.join(this.folders.requestDir, REQUEST);
    for (let i = 0; ; i++) {
      const bytes = await readIfThere(file);
      if (!bytes) return undefined;
      try {
        parseTefDial(bytes);
        return bytes;
      } catch (e) {
        const unfinished = e instanceof TefDialFormatError && (e.problem === 'no-terminator' || e.problem === 'empty');
        if (!unfinished || i >= INCOMPLETE_RETRIES) return bytes;
        await new Promise((r) => setTimeout(r, INCOMPLETE_WAIT_MS));
      }
    }
  }

  async #write(name: string, fields: Fields): Promise<void> {
    await writeWhole(this.folders.responseDir, name, writeTefDial(fields));
  }

  async #handle(bytes: Buffer): Promise<void> {
    let req: TefDialFields;
    try {
      req = parseTefDial(bytes);
    } catch (e) {
      if (!(e instanceof TefDialFormatError)) throw e;
      const echo = lenientHead(bytes);
      this.deps.log.warn({ problem: e.problem, line: e.line }, 'TEF Dial: a request file refused');
      await this.#write(STATUS_FILE, statusFile(echo));
      await this.#write(RESPONSE, refusal(echo, STATUS.refused, `ARQUIVO INVALIDO: ${e.message}`));
      return;
    }
    const op = (req.get('000-000') ?? '').trim();
    // The supervisor's password lies in clear in the PDV's file: blanked on the disk before anything else.
    if (supervisorPassword(req) !== '')
      await blankField(path.join(this.folders.requestDir, WORKING), bytes, SUPERVISOR_FIELD);
    await this.#write(STATUS_FILE, statusFile(req));
    const started = Date.now();
    try {
      const answer = await this.#operate(op, req);
      if (answer) await this.#write(RESPONSE, answer);
    } catch (e) {
      if (this.#abort.signal.aborted) return;
      if (!(e instanceof RequestFieldError)) {
        this.deps.log.error({ err: e, op }, 'TEF Dial: an operation failed');
        await this.#write(RESPONSE, refusal(req, STATUS.failed, 'ERRO INTERNO: OPERACAO NAO EFETUADA'));
        return;
      }
      await this.#write(RESPONSE, refusal(req, STATUS.refused, `CAMPO INVALIDO: ${e.message}`));
    }
    this.deps.log.info({ op, ms: Date.now() - started }, 'TEF Dial: request answered');
  }

  /** The operation's answer file, or undefined for the operations the convention answers with the status file alone. */
  async #operate(op: string, req: TefDialFields): Promise<Fields | undefined> {
    const deps = { ...this.deps, ledger: this.#ledger, signal: this.#abort.signal };
    switch (op) {
      case 'ATV':
        return undefined;
      case 'CRT':
        return crt(deps, req);
      case 'CNF':
        await decide(deps, req, 'confirm');
        return undefined;
      case 'NCN':
        await decide(deps, req, 'undo');
        return undefined;
      case 'CNC':
        return cnc(deps, req);
      case 'ADM':
        return adm(deps, req);
      default:
        return refusal(req, STATUS.refused, `COMANDO DESCONHECIDO: ${op}`);
    }
  }
}

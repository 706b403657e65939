// The fuzz campaign (issue 23): every parser that reads outside input, fed random and mutated
// published inputs through fast-check, counting inputs, crashes (an exception that is not the
// parser's own typed refusal) and hangs (one input slower than HANG_MS).
//
//   npm run fuzz                          10^6 inputs per parser (by hand: hours)
//   FUZZ_RUNS=20000 npm run fuzz          a short pass
//   FUZZ_SECONDS=5 npm run fuzz           at most 5 s per parser (whatever FUZZ_RUNS says)
//   FUZZ_ONLY=tlv,pix npm run fuzz        some parsers only
//
// CI keeps its 1,000-run properties in test/; this is the long run. Exit 1 on any crash or hang,
// with the counterexample printed (make it a test).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { decodeCommand, decodeResponse, FrameDecoder } from '../../drivers/pinpad/index.js';
import { isPinpadError } from '../../drivers/pinpad/errors.js';
import { decodeEscPos } from '../../drivers/printer/decoder.js';
import { decodeRealtimeStatus, decodeTransmitPaperStatus } from '../../drivers/printer/status.js';
import { PrinterError } from '../../drivers/printer/errors.js';
import { isOmniposError } from '../../src/core/errors/index.js';
import { decodeTlv } from '../../src/emv/ber-tlv.js';
import { decodeRecords } from '../../src/emv/table-records/codec.js';
import { parseInitialization } from '../../src/initialization/schema/parse.js';
import { parseMpm, parsePadraoq, parsePix, parseQr } from '../../src/qr/index.js';
import { parseControl } from '../../src/sim/pinpad/control.js';
import { parseScript } from '../../src/operations/homologation/script.js';
import { Refusal } from '../../src/sandbox/refusal.js';
import { sandboxTables } from '../../tables/initialization/sandbox-tables.js';
import { ApiError } from '../../src/api/http-kit.js';
import { padraoqInputs } from './padraoq-seeds.js';
import { apiTarget, configTarget, documentWords, sandboxTarget, type AsyncTarget } from './http-targets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000_000);
const SECONDS = process.env.FUZZ_SECONDS ? Number(process.env.FUZZ_SECONDS) : undefined;
const ONLY = process.env.FUZZ_ONLY?.split(',').filter(Boolean);
const HANG_MS = 1000;

/** Every string leaf of a published vectors file (the seeds the mutations start from). */
function leaves(file: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(readFileSync(path.join(root, file), 'utf8')));
  return out;
}
const hexSeeds = (file: string): Uint8Array[] =>
  leaves(file)
    .map((s) => s.replace(/\s+/g, ''))
    .filter((s) => s.length >= 4 && s.length % 2 === 0 && /^[0-9A-Fa-f]+$/.test(s))
    .map((s) => Uint8Array.from(Buffer.from(s, 'hex')));
const textSeeds = (file: string, min = 8): string[] => leaves(file).filter((s) => s.length >= min);

/** Random bytes, and published inputs with bytes changed, inserted, cut. */
function bytesFrom(seeds: readonly Uint8Array[]): fc.Arbitrary<Uint8Array> {
  const random = fc.uint8Array({ maxLength: 512 });
  if (seeds.length === 0) return random;
  const mutated = fc
    .tuple(
      fc.constantFrom(...seeds),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 2 })), { maxLength: 8 }),
    )
    .map(([seed, edits]) => {
      const b = Array.from(seed);
      for (const [at, byte, kind] of edits) {
        const i = b.length ? at % b.length : 0;
        if (kind === 0) b[i] = byte;
        else if (kind === 1) b.splice(i, 0, byte);
        else b.splice(i, 1);
      }
      return Uint8Array.from(b);
    });
  return fc.oneof({ arbitrary: random, weight: 1 }, { arbitrary: mutated, weight: 3 });
}
function textFrom(seeds: readonly string[]): fc.Arbitrary<string> {
  const random = fc.string({
    maxLength: 400,
    unit: fc.oneof(
      fc.constantFrom(...'0123456789ABCDEFabcdef.-/ '),
      fc.string({ minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
  });
  if (seeds.length === 0) return random;
  const mutated = fc
    .tuple(
      fc.constantFrom(...seeds),
      fc.array(
        fc.tuple(fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.integer({ min: 0, max: 2 })),
        { maxLength: 6 },
      ),
    )
    .map(([seed, edits]) => {
      const c = [...seed];
      for (const [at, ch, kind] of edits) {
        const i = c.length ? at % c.length : 0;
        if (kind === 0) c[i] = ch;
        else if (kind === 1) c.splice(i, 0, ch);
        else c.splice(i, 1);
      }
      return c.join('');
    });
  return fc.oneof({ arbitrary: random, weight: 1 }, { arbitrary: mutated, weight: 3 });
}

/** A typed refusal is the parser doing its job; anything else is a crash. */
const refusal = (e: unknown): boolean =>
  isOmniposError(e) ||
  isPinpadError(e) ||
  e instanceof PrinterError ||
  e instanceof Refusal ||
  (e instanceof ApiError && e.status < 500);

interface Target<T> {
  name: string;
  input: fc.Arbitrary<T>;
  run(x: T): unknown;
}
const target = <T>(t: Target<T>): Target<unknown> => t;

const pinpadSeeds = hexSeeds('test/vectors/pinpad/abecs-2.20-examples.json');
const docFields = documentWords(root).fields;
const docValue = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.stringMatching(/^\d{1,19}$/),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 1 }),
);
/**
 * A whole initialization answer that parses (the tables the sandbox serves, in the answer's shape):
 * the mutations start from it and replace leaves with values of every kind, so the parser is
 * tried deep inside, not only refused at the top.
 */
const initSeeds: unknown[] = [
  {
    MerchantId: '1234567890',
    TerminalId: '42004301',
    Merchant: {
      MerchantId: '1',
      NetworkName: 'X',
      MerchantName: 'Y',
      MerchantAddress: 'Z',
      NationalId: '00000000000191',
    },
    ...sandboxTables(),
    InitializationVersion: '1',
  },
];
/** A JSON value with some leaves replaced (the n-th leaf, counted through the tree). */
function mutateJson(seed: unknown, edits: [number, unknown][]): unknown {
  const copy = JSON.parse(JSON.stringify(seed)) as unknown;
  const count = (node: unknown): number =>
    node && typeof node === 'object' ? Object.values(node).reduce((a: number, c) => a + count(c), 0) : 1;
  const leavesInSeed = Math.max(1, count(copy));
  for (const [n, v] of edits) {
    let k = n % leavesInSeed;
    const walk = (node: unknown): boolean => {
      if (!node || typeof node !== 'object') return false;
      for (const key of Object.keys(node)) {
        const child = (node as Record<string, unknown>)[key];
        if (child === null || typeof child !== 'object') {
          if (k-- === 0) {
            (node as Record<string, unknown>)[key] = v;
            return true;
          }
        } else if (walk(child)) return true;
      }
      return false;
    };
    walk(copy);
  }
  return copy;
}
const qrTexts = textSeeds('test/vectors/qr/published.json', 20);
const TARGETS: Target<unknown>[] = [
  target({
    name: 'pinpad-frames',
    // The link decoder is total: any bytes, split anywhere, never an exception.
    input: fc.tuple(
      bytesFrom([Uint8Array.from([0x16, 0x4f, 0x50, 0x4e, 0x17, 0xa8, 0xa9]), ...pinpadSeeds]),
      fc.nat({ max: 64 }),
    ),
    run: ([bytes, cut]: [Uint8Array, number]) => {
      const d = new FrameDecoder();
      d.push(bytes.subarray(0, cut));
      d.push(bytes.subarray(cut));
    },
  }),
  target({ name: 'pinpad-answers', input: bytesFrom(pinpadSeeds), run: (b: Uint8Array) => decodeResponse(b) }),
  target({
    name: 'pinpad-commands (virtual pinpad)',
    input: bytesFrom(pinpadSeeds),
    run: (b: Uint8Array) => decodeCommand(b),
  }),
  target({
    name: 'virtual-pinpad-control',
    input: textFrom(['display hello', 'insert-card 4761739001010010', 'keys 1234', 'unplug 500']),
    run: (s: string) => parseControl(s),
  }),
  target({
    name: 'ber-tlv',
    input: bytesFrom(hexSeeds('test/vectors/emv/tlv-card-responses.json')),
    run: (b: Uint8Array) => decodeTlv(b),
  }),
  target({ name: 'emv-qr-mpm', input: textFrom(qrTexts), run: (s: string) => parseMpm(s) }),
  target({ name: 'pix', input: textFrom(qrTexts), run: (s: string) => parsePix(s) }),
  // Published QR texts edited, and strings built from the acquirer document's padraoq layout (padraoq-seeds.ts).
  target({
    name: 'wallet-qr-padraoq',
    input: fc.oneof(textFrom(qrTexts), padraoqInputs),
    run: (s: string) => parsePadraoq(s),
  }),
  target({ name: 'qr-any', input: fc.oneof(textFrom(qrTexts), padraoqInputs), run: (s: string) => parseQr(s) }),
  target({
    name: 'abecs-4.1-table-records',
    input: textFrom(textSeeds('test/vectors/initialization/abecs-4.1-records.json', 20)),
    run: (s: string) => decodeRecords(s, 'fuzz'),
  }),
  target({
    name: 'initialization-tables (JSON)',
    // Keys from the acquirer's documents (002: Bins, Products, Emv, Issuers, Parameters and their fields) and the recorded answers.
    input: fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({
        Bins: fc.jsonValue({ maxDepth: 3 }),
        Products: fc.jsonValue({ maxDepth: 3 }),
        Emv: fc.jsonValue({ maxDepth: 3 }),
      }),
      ...(initSeeds.length
        ? [
            fc
              .tuple(fc.constantFrom(...initSeeds), fc.array(fc.tuple(fc.nat(), docValue), { maxLength: 3 }))
              .map(([seed, edits]) => mutateJson(seed, edits)),
          ]
        : []),
      fc.dictionary(
        fc.constantFrom('Bins', 'Products', 'Emv', 'Issuers', 'Parameters', 'TerminalParameters', ...docFields),
        fc.array(
          fc.dictionary(docFields.length ? fc.constantFrom(...docFields) : fc.string(), docValue, { maxKeys: 12 }),
          { maxLength: 4 },
        ),
      ),
    ),
    run: (j: unknown) => parseInitialization(j),
  }),
  target({
    name: 'homologation-script (JSON text)',
    input: fc.oneof(fc.json({ maxDepth: 4 }), textFrom(['{"steps":[]}'])),
    run: (s: string) => parseScript(s),
  }),
  target({
    name: 'escpos-stream',
    input: bytesFrom([Uint8Array.from([0x1b, 0x40, 0x1d, 0x56, 0x00, 0x10, 0x04, 0x01])]),
    run: (b: Uint8Array) => decodeEscPos(b),
  }),
  target({
    name: 'escpos-status-bytes',
    input: fc.tuple(
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 255 }),
    ),
    run: ([a, b, c, d]: [number, number, number, number]) => {
      decodeRealtimeStatus(a, b, c, d);
      decodeTransmitPaperStatus(a);
    },
  }),
];

interface Result {
  name: string;
  inputs: number;
  seconds: number;
  perSecond: number;
  refusals: number;
  crash?: string;
}

async function campaignAsync(t: AsyncTarget<unknown>): Promise<Result> {
  let inputs = 0;
  let refusals = 0;
  const started = process.hrtime.bigint();
  const out = await fc.check(
    fc.asyncProperty(t.input, async (x) => {
      inputs++;
      const t0 = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          t.run(x),
          new Promise(
            (_, reject) =>
              (timer = setTimeout(() => reject(new Error(`hang: one input took more than ${HANG_MS} ms`)), HANG_MS)),
          ),
        ]);
      } catch (e) {
        if (!refusal(e)) throw e;
        refusals++;
      } finally {
        clearTimeout(timer);
      }
      const ms = performance.now() - t0;
      if (ms > HANG_MS) throw new Error(`hang: one input took ${ms.toFixed(0)} ms`);
    }),
    {
      numRuns: RUNS,
      ...(SECONDS ? { interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false } : {}),
      endOnFailure: false,
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const result: Result = {
    name: t.name,
    inputs,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(inputs / seconds),
    refusals,
  };
  if (out.failed) result.crash = `${String(out.errorInstance)}\n  counterexample: ${fc.stringify(out.counterexample)}`;
  return result;
}

function campaign(t: Target<unknown>): Result {
  let inputs = 0;
  let refusals = 0;
  const started = process.hrtime.bigint();
  const out = fc.check(
    fc.property(t.input, (x) => {
      inputs++;
      const t0 = performance.now();
      try {
        t.run(x);
      } catch (e) {
        if (!refusal(e)) throw e;
        refusals++;
      }
      const ms = performance.now() - t0;
      if (ms > HANG_MS) throw new Error(`hang: one input took ${ms.toFixed(0)} ms`);
    }),
    {
      numRuns: RUNS,
      ...(SECONDS ? { interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false } : {}),
      endOnFailure: false,
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const result: Result = {
    name: t.name,
    inputs,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(inputs / seconds),
    refusals,
  };
  if (out.failed) result.crash = `${String(out.errorInstance)}\n  counterexample: ${fc.stringify(out.counterexample)}`;
  return result;
}

const results: Result[] = [];
const wanted = (name: string): boolean => !ONLY || ONLY.some((o) => name.includes(o));
// The targets that read requests and files, built only when asked for (the sandbox opens a database).
const ASYNC_TARGETS: { name: string; make: () => AsyncTarget<unknown> | Promise<AsyncTarget<unknown>> }[] = [
  { name: 'configuration (file + OMNIPOS_* overrides)', make: () => configTarget(root) },
  { name: 'api-payment-request (body and headers)', make: () => apiTarget() },
  { name: 'sandbox-requests (every base)', make: () => sandboxTarget(root) },
  { name: 'sandbox-requests (wallet)', make: () => sandboxTarget(root, 'wallet') },
];
const queue: (() => Promise<Result>)[] = [
  ...TARGETS.filter((t) => wanted(t.name)).map((t) => () => Promise.resolve(campaign(t))),
  ...ASYNC_TARGETS.filter((t) => wanted(t.name)).map((t) => async () => campaignAsync(await t.make())),
];
for (const next of queue) {
  const r = await next();
  results.push(r);
  process.stdout.write(
    `${r.name.padEnd(36)} ${String(r.inputs).padStart(9)} inputs  ${r.seconds.toFixed(1).padStart(7)} s  ${String(r.perSecond).padStart(8)}/s  refused ${r.refusals}${r.crash ? `  CRASH ${r.crash}` : ''}\n`,
  );
}
const crashes = results.filter((r) => r.crash);
process.stdout.write(
  `\n${results.length} parsers, ${results.reduce((n, r) => n + r.inputs, 0)} inputs, ${crashes.length} crashes or hangs\n`,
);
process.exitCode = crashes.length ? 1 : 0;

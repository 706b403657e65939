import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { abecsIdByName, type AbecsId } from '../../../../tables/pinpad/abecs-ids.js';
import { ABECS_COMMAND_PARAMS, PARAM_PATTERNS, type CommandParams } from '../../../../tables/pinpad/command-params.js';
import { COMMANDS, commandRow } from '../../../../tables/pinpad/commands.js';
import { ABECS_HANDLERS, CLASSIC_HANDLERS } from '../../../../src/sim/pinpad/handlers/index.js';
import { faultStatus, isParamFault, readParams } from '../../../../src/sim/pinpad/wire/params.js';

/**
 * The driver and the virtual pinpad hold the facts of tables/pinpad/commands.ts and command-params.ts,
 * each with its own parsing code: a side that disagrees with the table fails here.
 */
interface Spec {
  readonly id: string;
  readonly blocking: boolean;
  readonly encode: unknown;
  readonly decode: unknown;
}
const isSpec = (x: unknown): x is Spec =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as Spec).id === 'string' &&
  typeof (x as Spec).blocking === 'boolean' &&
  typeof (x as Spec).encode === 'function';

const root = fileURLToPath(new URL('../../../../drivers/pinpad/', import.meta.url));
const driverFiles = [
  ...readdirSync(join(root, 'commands'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, 'commands', f)),
  join(root, 'secure', 'opn.ts'),
];
const driverModules: [string, unknown][] = await Promise.all(
  driverFiles.map(async (f) => [f, await import(pathToFileURL(f).href)] as [string, unknown]),
);
const driverSpecs = driverModules.flatMap(([file, m]) =>
  Object.entries(m as Record<string, unknown>).flatMap(([name, v]) =>
    isSpec(v) ? [{ where: `${file} ${name}`, spec: v }] : [],
  ),
);

/** A value that fits a parameter's format and length (§1.3): the spec's own characters, nothing clever. */
function sample(def: AbecsId): Uint8Array {
  const pattern = PARAM_PATTERNS[def.name];
  if (pattern) return Buffer.from('QRCODE01', 'latin1'); // the name of §3.4.1's and §3.4.6's examples
  const n = def.variable ? Math.min(def.length, 2) : def.length;
  const ch = { A: 'A', S: 'A', N: '0', H: '0', X: '\x00', B: '\x00' }[def.format];
  return Buffer.from(ch.repeat(n), 'latin1');
}
function par(name: string): Uint8Array {
  const def = abecsIdByName(name)!;
  const v = sample(def);
  return Uint8Array.from([def.id >> 8, def.id & 0xff, v.length >> 8, v.length & 0xff, ...v]);
}
const block = (names: readonly string[]): Uint8Array[] => [Uint8Array.from(Buffer.concat(names.map(par)))];

describe('the driver reads its command facts from the table', () => {
  it('finds the driver command specs', () => {
    expect(driverSpecs.length).toBeGreaterThanOrEqual(20);
  });

  it('every driver command is a row of the table, blocking exactly when the table says so', () => {
    for (const { where, spec } of driverSpecs) {
      const row = commandRow(spec.id);
      expect(row, where).toBeDefined();
      expect(spec.blocking, where).toBe(row!.blocking);
    }
  });
});

describe('the virtual pinpad agrees with the table', () => {
  it('a classic pinpad knows classic commands only (DEX among them), a current one adds the Abecs ones', () => {
    for (const id of CLASSIC_HANDLERS.keys()) expect(commandRow(id)?.family, id).toBe('classic');
    for (const id of ABECS_HANDLERS.keys()) expect(commandRow(id)?.family, id).toBe('abecs');
  });

  it('every command the virtual pinpad answers is a row of the table', () => {
    for (const id of [...CLASSIC_HANDLERS.keys(), ...ABECS_HANDLERS.keys()])
      expect(Object.hasOwn(COMMANDS, id), id).toBe(true);
  });

  for (const [id, t] of Object.entries(ABECS_COMMAND_PARAMS as Record<string, CommandParams>)) {
    const all = Object.keys(t.params);
    const mandatory = all.filter((n) => t.params[n] === 'M');
    it(`${id} (§${t.section}): takes its mandatory parameters alone, and each optional one besides; refuses a missing mandatory one with ST_MANDAT`, () => {
      const alone = readParams(id, block(mandatory));
      expect(isParamFault(alone) ? alone : 'ok', `${id} with ${mandatory.join(',') || 'nothing'}`).toBe('ok');
      for (const name of all.filter((n) => t.params[n] !== 'M')) {
        const p = readParams(id, block([...mandatory, name]));
        expect(isParamFault(p) ? p : 'ok', `${id} + ${name}`).toBe('ok');
        if (!isParamFault(p)) expect(p.has(name), `${id} kept ${name}`).toBe(true);
      }
      for (const name of mandatory) {
        const p = readParams(id, block(mandatory.filter((n) => n !== name)));
        expect(isParamFault(p) ? faultStatus(p) : 0, `${id} without ${name}`).toBe(19);
      }
    });
  }
});

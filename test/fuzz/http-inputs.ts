// What the HTTP and file fuzz targets are made of: the target's shape, the words of the acquirer's
// documents, JSON bodies keyed by them, and the content types a request may claim.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';

export interface AsyncTarget<T> {
  name: string;
  input: fc.Arbitrary<T>;
  run(x: T): Promise<unknown>;
}

/**
 * Words from the acquirer's documents (../shared/seeds, `FUZZ_SEEDS` to name another folder): the
 * field names of their tables (first column) and the paths they name. Empty where the folder is
 * not there: the generators then fall back to their own keys.
 */
export function documentWords(root: string): { fields: string[]; paths: string[] } {
  const dir =
    process.env.FUZZ_SEEDS ??
    [path.join(root, '..', 'shared', 'seeds'), path.join(root, '..', '..', 'shared', 'seeds')].find((d) =>
      existsSync(d),
    );
  const fields = new Set<string>();
  const paths = new Set<string>();
  if (!dir || !existsSync(dir)) return { fields: [], paths: [] };
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/^\| `?([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_[\]]+)*)`? \|/gm)) {
      for (const part of (m[1] as string).split('.')) fields.add(part.replace(/\[\]$/, ''));
    }
    for (const m of text.matchAll(/(?:^|[\s|`(])(\/[A-Za-z0-9{}_.\-/]+)/gm)) paths.add(m[1] as string);
  }
  return { fields: [...fields].filter((k) => k.length > 1), paths: [...paths] };
}

/** JSON objects whose keys come from `keys` (nested, with every kind of value), as text or as bytes around it. */
export function jsonBodies(keys: readonly string[]): fc.Arbitrary<Buffer> {
  const key =
    keys.length > 0
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...keys), weight: 4 },
          { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
        )
      : fc.string({ maxLength: 12 });
  const leaf = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^\d{1,20}$/),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(
      'CreditCard',
      'DebitCard',
      'Emv',
      'Typed',
      'client_credentials',
      '4761739001010010',
      '00020101021226',
    ),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(key, tie('v'), { maxKeys: 6 }),
    ),
  })).v;
  const object = fc.dictionary(key, value, { maxKeys: 10 }).map((o) => Buffer.from(JSON.stringify(o)));
  const edited = fc
    .tuple(object, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }))
    .map(([b, at, bytes]) =>
      Buffer.concat([b.subarray(0, at % (b.length + 1)), Buffer.from(bytes), b.subarray(at % (b.length + 1))]),
    );
  return fc.oneof(
    { arbitrary: object, weight: 5 },
    { arbitrary: edited, weight: 2 },
    { arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)), weight: 1 },
    { arbitrary: fc.constant(Buffer.alloc(0)), weight: 1 },
  );
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/problem+json',
  '',
];

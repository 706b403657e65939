import { afterEach, describe, expect, it, vi } from 'vitest';
import { CnpEngine } from '../../../src/engine/cnp/engine.js';
import { CNP_FINAL, CNP_STATES } from '../../../src/engine/cnp/types.js';
import { PixEngine } from '../../../src/engine/pix/engine.js';
import { PIX_FINAL, PIX_STATES } from '../../../src/engine/pix/types.js';
import { QrEngine } from '../../../src/engine/qr/engine.js';
import { QR_FINAL, QR_STATES } from '../../../src/engine/qr/types.js';
import { SaleEngine } from '../../../src/engine/sale/engine.js';
import { FINAL_STATES, SALE_STATES } from '../../../src/engine/sale/types.js';
import { unfinishedStates } from '../../../src/engine/state-lists.js';
import { VoidEngine } from '../../../src/engine/void/engine.js';
import { FINAL_VOID_STATES, VOID_STATES } from '../../../src/engine/void/types.js';
import { ownerDeps } from '../../helpers/qr-terminal.js';
import { TEST_EXPIRY_KEY, useTempStores } from '../../helpers/store.js';

const store = useTempStores('omnipos-state-lists-');

type Deps = ReturnType<typeof ownerDeps> & { expiryKey: typeof TEST_EXPIRY_KEY };

/**
 * What each engine's restart walk asks the journal for: the engine built on a real store, its journal's
 * `inStates` watched (the rows it finds are not the point; the states it asks for are: the first
 * question is the walk, the void asks again for its shown codes). The ports a restart with nothing to
 * do never reads (the host, the card reader) are `unused`: reading one fails the test.
 */
function walked(build: (deps: Deps) => { recover(): unknown }): string[] {
  const deps = { ...ownerDeps(store(), 1), expiryKey: TEST_EXPIRY_KEY };
  const asked = vi.spyOn(deps.journal, 'inStates');
  build(deps).recover();
  expect(asked).toHaveBeenCalled();
  return [...asked.mock.calls[0]![0]].sort();
}

/** A port recover() must not read: any property read throws, naming it. */
function unused<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      throw new Error(`recover() read ${what}.${String(key)}`);
    },
  });
}

/** Every state of `all` that is not final, sorted (what a restart must walk). */
const notFinal = (all: readonly string[], final: ReadonlySet<string>): string[] =>
  all.filter((s) => !final.has(s)).sort();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('unfinishedStates', () => {
  it('is every state but the final ones, in the list order', () => {
    expect(unfinishedStates(['a', 'b', 'c', 'd'], new Set(['b', 'd']))).toEqual(['a', 'c']);
  });
});

describe("each engine's restart walk asks for every state that is not final", () => {
  it('card sale', () => {
    expect(walked((d) => new SaleEngine({ ...d, card: unused('card'), host: unused('host') }))).toEqual(
      notFinal(SALE_STATES, FINAL_STATES),
    );
  });

  it('void', () => {
    expect(
      walked(
        (d) =>
          new VoidEngine({
            ...d,
            card: unused('card'),
            host: unused('host'),
            supervisor: unused('supervisor'),
            tables: unused('tables'),
          }),
      ),
    ).toEqual(notFinal(VOID_STATES, FINAL_VOID_STATES));
  });

  it('wallet QR sale', () => {
    expect(walked((d) => new QrEngine({ ...d, host: unused('host') }))).toEqual(notFinal(QR_STATES, QR_FINAL));
  });

  it('Pix sale', () => {
    expect(walked((d) => new PixEngine({ ...d, host: unused('host') }))).toEqual(notFinal(PIX_STATES, PIX_FINAL));
  });

  it('card-not-present sale: all but `authorized`, a pre-authorization the host holds until its capture or void', () => {
    const walk = walked((d) => new CnpEngine({ ...d, host: unused('host') }));
    expect(walk).toEqual(notFinal(CNP_STATES, CNP_FINAL).filter((s) => s !== 'authorized'));
  });
});

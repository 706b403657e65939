import { existsSync } from 'node:fs';
import { ESLint, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * One public surface per ring (docs/architecture.md "Rings"): another area is imported through its
 * index.ts, never a module behind it. The fixtures are made-up files placed by their path, since the
 * rule names a file's area from its path.
 */
const rulePath = '../../../eslint.layers.js';
const layers = (await import(rulePath)) as {
  layersRule: Rule.RuleModule;
  ENTRIES: readonly { module: string; why: string; from?: readonly string[]; lazy?: boolean }[];
};

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { omnipos: { rules: { layers: layers.layersRule } } },
      rules: { 'omnipos/layers': 'error' },
    },
  ],
});

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.map((m) => m.message);
}

const around = (from: string, to: string, index: string, target: string): string =>
  `${from} may import ${to} only through ${index}, not ${target} (one public surface per ring: see docs/architecture.md "Rings")`;

describe('one public surface per ring (docs/architecture.md "Rings")', () => {
  it('refuses an import that reaches around an index.ts, static, type-only, re-exported or lazy', async () => {
    const reachesAround = "import { OmniposError } from '../core/errors/index.js';";
    expect(await lint('src/api/fixture.ts', reachesAround)).toEqual([
      around('src/api', 'src/core', 'src/core/index.ts', 'src/core/errors/index.ts'),
    ]);
    expect(await lint('drivers/bibcomp/fixture.ts', "import { FrameDecoder } from '../pinpad/decoder.js';")).toEqual([
      around('drivers/bibcomp', 'drivers/pinpad', 'drivers/pinpad/index.ts', 'drivers/pinpad/decoder.ts'),
    ]);
    expect(await lint('src/fleet/fixture.ts', "import type { Db } from '../store/open.js';")).toHaveLength(1);
    expect(await lint('src/cli/fixture.ts', "export * from '../operations/day/index.js';")).toHaveLength(1);
    expect(await lint('src/cli/fixture.ts', "const m = await import('../fleet/client.js');")).toHaveLength(1);
    expect(await lint('src/sim/pinpad/card/fixture.ts', "import '../../../emv/table-records/codec.js';")).toEqual([
      around('src/sim', 'src/emv', 'src/emv/index.ts', 'src/emv/table-records/codec.ts'),
    ]);
  });

  it('lets the same imports through the index.ts, and leaves imports inside an area alone', async () => {
    expect(await lint('src/api/fixture.ts', "import { OmniposError } from '../core/index.js';")).toEqual([]);
    expect(await lint('drivers/bibcomp/fixture.ts', "import { FrameDecoder } from '../pinpad/index.js';")).toEqual([]);
    expect(await lint('src/fleet/fixture.ts', "import type { Db } from '../store/index.js';")).toEqual([]);
    expect(await lint('src/cli/fixture.ts', "const m = await import('../fleet/index.js');")).toEqual([]);
    // inside an area, a relative import goes anywhere
    expect(await lint('src/operations/day/fixture.ts', "import '../alarms/monitor.js';")).toEqual([]);
    expect(await lint('src/sim/pinpad/card/fixture.ts', "import '../../printer/paper.js';")).toEqual([]);
  });

  it('has no surface for data, tests, browser pages and ambient declarations', async () => {
    expect(await lint('drivers/pinpad/fixture.ts', "import '../../tables/pinpad/card-commands.js';")).toEqual([]);
    expect(await lint('src/sandbox/fixture.ts', "import '../../tables/sandbox/published-errors.js';")).toEqual([]);
    expect(await lint('test/unit/fixture.test.ts', "import '../../src/store/open.js';")).toEqual([]);
  });

  it('a direction refused by the rings is reported once, as a direction', async () => {
    expect(await lint('src/core/fixture.ts', "import '../api/app.js';")).toEqual([
      'src/core may not import src/api (layers point down: see docs/architecture.md "Rings")',
    ]);
  });

  it('keeps its exceptions explicit: the logger and systemd from anywhere, the rest only for whom or how they are named', async () => {
    expect(await lint('src/cli/fixture.ts', "import { createLogger } from '../core/log/index.js';")).toEqual([]);
    // `omnipos --help` and `omnipos api token` load as little as they can
    expect(await lint('src/cli/run-commands.ts', "import { exitCodeOf } from '../core/errors/index.js';")).toEqual([]);
    expect(await lint('src/cli/other.ts', "import { exitCodeOf } from '../core/errors/index.js';")).toHaveLength(1);
    expect(await lint('src/cli/api-token.ts', "import { ensureTokenFile } from '../store/api-token.js';")).toEqual([]);
    expect(await lint('src/cli/queue.ts', "import { ensureTokenFile } from '../store/api-token.js';")).toHaveLength(1);
    // a virtual device loaded at first use stays its own module, for `await import()` only
    expect(
      await lint('src/cli/fixture.ts', "const { VirtualPinpad } = await import('../sim/pinpad/index.js');"),
    ).toEqual([]);
    expect(await lint('src/cli/fixture.ts', "import { VirtualPinpad } from '../sim/pinpad/index.js';")).toEqual([
      around('src/cli', 'src/sim', 'src/sim/index.ts', 'src/sim/pinpad/index.ts'),
    ]);
    for (const e of layers.ENTRIES) {
      expect(existsSync(e.module), e.module).toBe(true);
      expect(e.why.length, e.module).toBeGreaterThan(20);
      for (const f of e.from ?? []) expect(existsSync(f), f).toBe(true);
    }
  });

  it('holds the engine, the acquirer, the adapters and the composition root to their surfaces too (no area is exempt)', async () => {
    expect('SURFACE_PENDING' in layers).toBe(false);
    expect(await lint('src/engine/fixture.ts', "import '../core/clock.js';")).toEqual([
      around('src/engine', 'src/core', 'src/core/index.ts', 'src/core/clock.ts'),
    ]);
    expect(await lint('src/api/fixture.ts', "import '../engine/ports.js';")).toEqual([
      around('src/api', 'src/engine', 'src/engine/index.ts', 'src/engine/ports.ts'),
    ]);
    expect(await lint('src/api/fixture.ts', "import type { CardPort } from '../engine/index.js';")).toEqual([]);
    expect(await lint('src/main/fixture.ts', "import '../acquirer/omni/backend.js';")).toEqual([
      around('src/main', 'src/acquirer', 'src/acquirer/index.ts', 'src/acquirer/omni/backend.ts'),
    ]);
    expect(await lint('src/main/fixture.ts', "import '../adapters/pinpad-device.js';")).toEqual([
      around('src/main', 'src/adapters', 'src/adapters/index.ts', 'src/adapters/pinpad-device.ts'),
    ]);
    expect(await lint('src/main.ts', "import './core/systemd.js'; import './api/app.js';")).toEqual([
      around('src/main', 'src/api', 'src/api/index.ts', 'src/api/app.ts'),
    ]);
    expect(await lint('src/cli/fixture.ts', "import '../main/voids.js';")).toEqual([
      around('src/cli', 'src/main', 'src/main.ts', 'src/main/voids.ts'),
    ]);
    expect(await lint('src/cli/fixture.ts', "import { startDaemon } from '../main.js';")).toEqual([]);
  });

  it('gives a command no piece of the composition root (what it shares with the daemon lives in the factories), and loads the fleet client lazily only', async () => {
    for (const piece of ['voids', 'held', 'devices', 'acquirer-backend', 'acquirer-urls'])
      expect(await lint('src/cli/void.ts', `import { x } from '../main/${piece}.js';`), piece).toHaveLength(1);
    expect(
      await lint(
        'src/cli/void.ts',
        "import { acquirerProvisioning } from '../factory/index.js'; import { openPinpadTarget } from '../adapters/index.js';",
      ),
    ).toEqual([]);
    expect(await lint('src/main/fleet.ts', "const m = await import('../fleet/client.js');")).toEqual([]);
    expect(await lint('src/main/fleet.ts', "import { FleetClient } from '../fleet/client.js';")).toHaveLength(1);
    expect(await lint('src/main/receipt-png.ts', "import { VirtualPrinter } from '../sim/printer/index.js';")).toEqual(
      [],
    );
    expect(
      await lint('src/main/printing.ts', "import { VirtualPrinter } from '../sim/printer/index.js';"),
    ).toHaveLength(1);
  });
});

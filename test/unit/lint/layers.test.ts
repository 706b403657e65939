import { ESLint, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const rulePath = '../../../eslint.layers.js';
const { layersRule } = (await import(rulePath)) as { layersRule: Rule.RuleModule };

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { omnipos: { rules: { layers: layersRule } } },
      rules: { 'omnipos/layers': 'error' },
    },
  ],
});

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.map((m) => m.message);
}

describe('the layer lint rule (docs/architecture.md "Rings")', () => {
  it('refuses drivers importing src', async () => {
    expect(await lint('drivers/pinpad/x.ts', "import { a } from '../../src/core/errors/index.js';")).toEqual([
      'drivers/pinpad may not import src/core (layers point down: see docs/architecture.md "Rings")',
    ]);
  });

  it('refuses tables importing drivers, and an inner ring importing an outer one', async () => {
    expect(await lint('tables/x.ts', "import '../drivers/pinpad/frame.js';")).toHaveLength(1);
    expect(await lint('src/core/x.ts', "import { loadConfig } from '../config/index.js';")).toHaveLength(1);
    expect(await lint('src/engine/x.ts', "export * from '../api/app.js';")).toHaveLength(1);
    expect(await lint('src/engine/x.ts', "import { Pinpad } from '../../drivers/pinpad/pinpad.js';")).toHaveLength(1);
    expect(await lint('src/store/x.ts', "const m = await import('../engine/sale.js');")).toHaveLength(1);
  });

  it('refuses I/O modules in the pure codecs', async () => {
    expect(await lint('src/crypto/x.ts', "import { readFileSync } from 'node:fs';")).toEqual([
      'src/crypto is a pure codec and may not import node:fs',
    ]);
    expect(await lint('src/qr/x.ts', "import { request } from 'undici';")).toHaveLength(1);
    expect(await lint('src/crypto/x.ts', "import { createCipheriv } from 'node:crypto';")).toEqual([]);
  });

  it('lets imports point down', async () => {
    expect(
      await lint('drivers/pinpad/x.ts', "import '../transport/index.js'; import '../../tables/pinpad/codes.js';"),
    ).toEqual([]);
    expect(
      await lint(
        'src/engine/x.ts',
        "import '../store/index.js'; import '../core/index.js'; import '../initialization/index.js';",
      ),
    ).toEqual([]);
    // The engine speaks to the acquirer only through its ports; a backend (src/acquirer/<name>/) implements them.
    expect(await lint('src/engine/x.ts', "import '../acquirer/omni/client.js';")).toHaveLength(1);
    expect(
      await lint('src/acquirer/omni/x.ts', "import type { AcquirerBackend } from '../../engine/index.js';"),
    ).toEqual([]);
    expect(
      await lint('src/adapters/x.ts', "import '../../drivers/pinpad/index.js'; import '../engine/index.js';"),
    ).toEqual([]);
    expect(await lint('src/main.ts', "import './api/index.js'; import '../drivers/printer/index.js';")).toEqual([]);
    expect(await lint('test/unit/x.test.ts', "import '../../src/main.js';")).toEqual([]);
  });

  it('refuses a virtual device importing its driver (a counterpart, not a mirror): the pinpad and the printer alike', async () => {
    const why =
      "src/sim may not import drivers: a virtual device never uses the driver's decoder or codecs (it is the driver's counterpart)";
    expect(
      await lint('src/sim/pinpad/engine.ts', "import { FrameDecoder } from '../../../drivers/pinpad/index.js';"),
    ).toEqual([why]);
    expect(
      await lint(
        'src/sim/pinpad/card/read.ts',
        "import { maskPanField } from '../../../../drivers/pinpad/commands/card/mask.js';",
      ),
    ).toEqual([why]);
    expect(await lint('src/sim/pinpad/x.ts', "export * from '../../../drivers/pinpad/codec/params.js';")).toEqual([
      why,
    ]);
    expect(await lint('src/sim/pinpad/x.ts', "const m = await import('../../../drivers/pinpad/decoder.js');")).toEqual([
      why,
    ]);
    expect(
      await lint('src/sim/printer/x.ts', "import { EscPosDecoder } from '../../../drivers/printer/index.js';"),
    ).toEqual([why]);
    expect(
      await lint('src/sim/printer/x.ts', "import type { Bitmap } from '../../../drivers/printer/index.js';"),
    ).toEqual([why]);
    // the printers' models are what the virtual printer is, not what it checks
    expect(await lint('src/sim/printer/x.ts', "import '../../../tables/printers/index.js';")).toEqual([]);
  });

  it("refuses a command a driver: the CLI gets its devices from the adapters' factory, as the daemon does", async () => {
    const why =
      "src/cli may not import drivers: a command gets its devices, sessions, discovery and the drivers' errors from the adapters' factory (src/adapters/devices.ts), as the daemon does";
    for (const code of [
      "import { SecurePinpad } from '../../drivers/pinpad/index.js';",
      "import type { GixResult } from '../../drivers/pinpad/index.js';",
      "import { findBibcompLibraries } from '../../drivers/bibcomp/index.js';",
      "const m = await import('../../drivers/transport/index.js');",
    ])
      expect(await lint('src/cli/x.ts', code), code).toEqual([why]);
    expect(
      await lint(
        'src/cli/x.ts',
        "import { openPinpadTarget } from '../adapters/index.js'; import '../main.js'; import '../../tables/printers/index.js';",
      ),
    ).toEqual([]);
  });

  it("refuses a virtual device the driver's pinpad tables: it checks against its own reading of the specification", async () => {
    const why =
      "src/sim may not import tables/pinpad: a virtual device checks what it receives against its own reading of the specification (src/sim/pinpad/spec), not the driver's tables";
    for (const [file, target] of [
      ['src/sim/pinpad/x.ts', '../../../tables/pinpad/command-params.js'],
      ['src/sim/pinpad/wire/x.ts', '../../../../tables/pinpad/abecs-ids.js'],
      ['src/sim/pinpad/secure/x.ts', '../../../../tables/pinpad/commands.js'],
      ['src/sim/printer/x.ts', '../../../tables/pinpad/formats.js'],
    ] as const)
      expect(await lint(file, `import { x } from '${target}';`), file).toEqual([why]);
    // the data a virtual pinpad holds (its cards, keys, EMV tables) is not what it checks
    expect(await lint('src/sim/pinpad/card/x.ts', "import '../../../../tables/test-cards.js';")).toEqual([]);
  });

  it('places src/fleet beside the API: it reads the store, the engines and operations, and nothing below imports it', async () => {
    expect(
      await lint(
        'src/fleet/x.ts',
        "import '../store/index.js'; import '../engine/index.js'; import '../operations/index.js'; import '../config/index.js'; import '../core/log/index.js';",
      ),
    ).toEqual([]);
    expect(await lint('src/fleet/x.ts', "import '../api/app.js';")).toEqual([
      'src/fleet may not import src/api (layers point down: see docs/architecture.md "Rings")',
    ]);
    expect(await lint('src/fleet/x.ts', "import '../adapters/pix.js';")).toHaveLength(1);
    expect(await lint('src/fleet/x.ts', "import '../sandbox/index.js';")).toHaveLength(1);
    expect(await lint('src/api/x.ts', "import '../fleet/client.js';")).toHaveLength(1);
    expect(await lint('src/engine/x.ts', "import '../fleet/client.js';")).toHaveLength(1);
    expect(await lint('src/operations/x.ts', "import '../fleet/client.js';")).toHaveLength(1);
    expect(await lint('src/main/x.ts', "import '../fleet/index.js';")).toEqual([]);
  });

  it('refuses the sandbox importing the acquirer client: the host is written from the manual, not from our client', async () => {
    expect(await lint('src/sandbox/x.ts', "import { ROUTES } from '../acquirer/routes.js';")).toEqual([
      'src/sandbox may not import src/acquirer (layers point down: see docs/architecture.md "Rings")',
    ]);
    expect(await lint('src/sandbox/x.ts', "export * from '../acquirer/outcomes.js';")).toHaveLength(1);
    expect(await lint('src/sandbox/x.ts', "const c = await import('../acquirer/index.js');")).toHaveLength(1);
    // the client's tables are the client's too
    expect(
      await lint(
        'src/sandbox/x.ts',
        "import '../core/index.js'; import '../crypto/index.js'; import '../../tables/sandbox/published-errors.js';",
      ),
    ).toEqual([]);
  });

  it('src/sandbox as it is on disk imports nothing from src/acquirer', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = 'src/sandbox';
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const f of files) {
      const text = readFileSync(`${dir}/${f}`, 'utf8');
      const messages = await lint(`${dir}/${f}`, text);
      found.push(...messages.map((m) => `${f}: ${m}`));
      // nor the client's own tables (return codes and routes are the client's reading of the manual)
      if (/from '[./]*tables\/acquirer\//.test(text)) found.push(`${f}: imports tables/acquirer`);
    }
    expect(found).toEqual([]);
  });
  it("an acquirer kind's config.ts is of the configuration ring and its entry.ts of the factory's, though both live in the kind's folder", async () => {
    // the configuration's registry reads a kind's keys; the kind's keys import only what the configuration may
    expect(await lint('src/config/acquirer-registry.ts', "import { X } from '../acquirer/stub/config.js';")).toEqual(
      [],
    );
    expect(
      await lint('src/acquirer/stub/config.ts', "import type { K } from '../../config/acquirer-kind.js';"),
    ).toEqual([]);
    expect(await lint('src/acquirer/stub/config.ts', "import { stubBackend } from './backend.js';")).toEqual([
      'src/config may not import src/acquirer (layers point down: see docs/architecture.md "Rings")',
    ]);
    expect(await lint('src/acquirer/stub/config.ts', "import '../../store/index.js';")).toHaveLength(1);
    // a kind's entry builds from its own folder and the factory's helpers, and nothing below imports it
    expect(
      await lint(
        'src/acquirer/stub/entry.ts',
        "import { stubBackend } from './backend.js'; import '../../factory/kind-entry.js'; import '../index.js';",
      ),
    ).toEqual([]);
    expect(await lint('src/acquirer/stub/entry.ts', "import '../omni/client.js';")).toEqual([
      'src/factory may import src/acquirer only through src/acquirer/index.ts, not src/acquirer/omni/client.ts (one public surface per ring: see docs/architecture.md "Rings")',
    ]);
    expect(await lint('src/acquirer/stub/backend.ts', "import '../../factory/index.js';")).toHaveLength(1);
    expect(await lint('src/engine/x.ts', "import '../acquirer/stub/entry.js';")).toHaveLength(1);
    // the card-not-present port's kind files alike
    expect(await lint('src/acquirer/stub/cnp-config.ts', "import { b } from './backend.js';")).toHaveLength(1);
    expect(
      await lint(
        'src/acquirer/stub/cnp-entry.ts',
        "import { b } from './index.js'; import '../../factory/cnp-parts.js';",
      ),
    ).toEqual([]);
    // only a kind's folder name (lowercase letters and digits) and only these file names
    expect(await lint('src/acquirer/stub/other.ts', "import '../../factory/kind-entry.js';")).toHaveLength(1);
  });
});

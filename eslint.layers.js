// The import directions of docs/architecture.md ("Rings"), as data walked by one lint rule.
// tables/ <- drivers/ <- src/; inside src/, an inner ring never imports an outer one.
import path from 'node:path';

const CODECS = ['src/crypto', 'src/emv', 'src/qr'];
const INNER = ['tables', 'src/core', 'src/config', ...CODECS];
/** What the cash register's API may import. */
const API = [
  ...INNER,
  'src/store',
  'src/initialization',
  'src/acquirer',
  'src/receipt',
  'src/engine',
  'src/operations',
];

/** area -> areas it may import (besides itself). `drivers/*` and `src/*` name every folder below them. */
export const ALLOWED = {
  tables: [],
  'drivers/*': ['tables', 'drivers/*'],
  'src/core': ['tables'],
  'src/config': ['tables', 'src/core'],
  'src/crypto': ['tables', 'src/core', ...CODECS],
  'src/emv': ['tables', 'src/core', ...CODECS],
  'src/qr': ['tables', 'src/core', ...CODECS],
  'src/store': [...INNER],
  'src/initialization': [...INNER, 'src/store'],
  // The acquirer backends (src/acquirer/<name>/) implement the engine's ports: they import the
  // engine's port types and the initialization's table source; the engine never imports them.
  'src/acquirer': [...INNER, 'src/initialization', 'src/engine'],
  'src/receipt': [...INNER],
  'src/engine': [...INNER, 'src/store', 'src/initialization', 'src/receipt'],
  // The devices' one factory (src/adapters/devices.ts) starts the virtual pinpad or printer when the
  // configuration names one, with `await import()` (ENTRIES).
  'src/adapters': [
    ...INNER,
    'src/store',
    'src/initialization',
    'src/acquirer',
    'src/receipt',
    'src/engine',
    'src/sim',
    'drivers/*',
  ],
  // The sandbox plays the acquirer's host from the manual: it never imports our client (src/acquirer),
  // so a misreading of the manual on one side cannot hide on the other.
  'src/sandbox': [...INNER, 'src/store', 'src/initialization'],
  // The virtual devices are counterparts of the drivers, never mirrors: no import of drivers/ (FORBIDDEN says why).
  'src/sim': [...INNER],
  'src/operations': [...INNER, 'src/store', 'src/initialization', 'src/acquirer', 'src/receipt', 'src/engine'],
  'src/api': API,
  // The TEF Dial file interface (IntPos.001): a second front door beside the API, driving the same engines
  // through what the API shows of a payment (src/api), never a copy of its rules.
  'src/tefdial': [...API, 'src/api'],
  // Fleet telemetry over MQTT: beside the API, reads the store, the engines' events and operations.
  'src/fleet': [...INNER, 'src/store', 'src/engine', 'src/operations'],
  // What the configuration names, built alike for the daemon and the commands (the acquirer of
  // acquirer.kind, its addresses, the QR codes' provider): the embedded sandbox's address table included.
  'src/factory': [...INNER, 'src/store', 'src/initialization', 'src/acquirer', 'src/engine', 'src/sandbox'],
  'src/main': ['*'],
  'src/cli': ['*'],
  // Browser code served by the API: imports only itself (it reaches the daemon over HTTP).
  'src/screens': [],
  test: ['*'],
};

/**
 * Folders that may not import another although their areas may. The commands (src/cli) reach the
 * devices through the adapters' one factory, never a driver: a technician's command and the daemon
 * build, open and name a device alike. A counterpart is not a mirror (BRIEF "How we build"). The virtual pinpad speaks ABECS with its own reader and codec and checks
 * what it receives against its own transcription of the specification (src/sim/pinpad/spec), never
 * the driver's tables: a misreading shared by both sides could not show. The virtual printer reads
 * ESC/POS with its own reader and answers status with its own encoders (src/sim/printer/escpos).
 */
export const FORBIDDEN = [
  {
    from: 'src/cli',
    to: 'drivers',
    why: "a command gets its devices, sessions, discovery and the drivers' errors from the adapters' factory (src/adapters/devices.ts), as the daemon does",
  },
  {
    from: 'src/sim',
    to: 'drivers',
    why: "a virtual device never uses the driver's decoder or codecs (it is the driver's counterpart)",
  },
  {
    from: 'src/sim',
    to: 'tables/pinpad',
    why: "a virtual device checks what it receives against its own reading of the specification (src/sim/pinpad/spec), not the driver's tables",
  },
];

const under = (rel, dir) => rel === dir || rel.startsWith(`${dir}/`);

/**
 * One public surface per ring: another area is imported through its index.ts (`src/<folder>/index.ts`,
 * `drivers/<folder>/index.ts`), never through a module behind it; inside an area, relative imports are
 * free. These areas have no surface: `tables` is data, one module per table (a barrel would load every
 * table, the sandbox's keys included, wherever one is read); `test` imports what it tests;
 * `src/screens` is browser code served as files, never imported; `src/types` holds ambient declarations.
 */
const NO_SURFACE = ['tables', 'test', 'src/screens', 'src/types'];

/**
 * The exceptions: modules another area may import besides an index.ts, each with why. `from` limits
 * the importers (repository-relative files); `lazy` allows only `await import()` (a module loaded at
 * first use must stay a module of its own: a barrel would load it with everything else at start).
 */
export const ENTRIES = [
  {
    module: 'src/core/log/index.ts',
    why: 'the logger: createLogger loads pino (~100 ms), so src/core/index.ts exports only its types',
  },
  {
    module: 'src/core/systemd.ts',
    why: "systemd's notify protocol loads node:child_process (~8 ms); only the composition root uses it",
  },
  {
    module: 'src/core/errors/index.ts',
    from: ['src/cli/run-commands.ts'],
    why: '`omnipos --help` loads the command table and the error catalogue, nothing else of src/core',
  },
  {
    module: 'src/store/api-token.ts',
    from: ['src/cli/api-token.ts'],
    why: '`omnipos api token` reads the token file without loading SQLite (src/store/index.ts does)',
  },
  {
    module: 'src/config/load-quick.ts',
    from: ['src/cli/api-token.ts'],
    why: '`omnipos api token` validates the configuration without loading zod (src/config/index.ts loads it), zod only when the fast path declines',
  },
  {
    module: 'src/sim/pinpad/index.ts',
    lazy: true,
    why: 'the daemon loads a virtual device with `await import()` only when its configuration names it',
  },
  {
    module: 'src/sim/printer/index.ts',
    lazy: true,
    why: 'the daemon loads a virtual device with `await import()` only when its configuration names it',
  },
  {
    module: 'src/sim/printer/index.ts',
    from: ['src/main/receipt-png.ts'],
    why: "the receipt's PNG (itself loaded at the first request for it) is the virtual printer's paper; src/sim/index.ts would load the virtual pinpad too",
  },
  {
    module: 'src/sandbox/addresses.ts',
    from: ['src/factory/acquirer-urls.ts'],
    why: "the configuration keys of the sandbox's addresses without the sandbox host, which src/main/sandbox-host.ts loads with `await import()` only when the daemon embeds it",
  },
  {
    module: 'src/fleet/client.ts',
    from: ['src/main/fleet.ts'],
    lazy: true,
    why: "the fleet's MQTT client loads with `await import()` only when fleet.mqtt is configured (src/fleet/index.ts exports only its types)",
  },
  {
    module: 'src/fleet/telemetry-outbox.ts',
    from: ['src/main/fleet.ts'],
    lazy: true,
    why: "the fleet's telemetry outbox loads with `await import()` only when fleet.mqtt is configured (src/fleet/index.ts exports only its types)",
  },
];

/** The index.ts through which other areas import `area`, or undefined when the area has no surface. */
export function surfaceOf(area) {
  if (NO_SURFACE.includes(area)) return undefined;
  return area === 'src/main' ? 'src/main.ts' : `${area}/index.ts`;
}

/**
 * Why an import of `target` (a repository-relative module, `.js` or `.ts`) from `file` reaches around
 * the target's surface, or undefined when it does not. `lazy`: the import is an `await import()`.
 */
export function aroundSurface(file, target, lazy = false) {
  const from = areaOf(file);
  const to = areaOf(target);
  if (!from || !to || from === to || from === 'test') return undefined;
  const index = surfaceOf(to);
  const module = target.replace(/\.js$/, '.ts');
  if (!index || module === index) return undefined;
  const excepted = ENTRIES.some((e) => e.module === module && (!e.from || e.from.includes(file)) && (!e.lazy || lazy));
  if (excepted || ownKindFolder(file, module)) return undefined;
  return { from, to, index, target: module };
}

/** The FORBIDDEN rule that refuses an import of `target` from `file` (both repository-relative), if any. */
export function forbiddenImport(file, target) {
  return FORBIDDEN.find((f) => under(file, f.from) && under(target, f.to));
}

/** Pure codecs: no I/O modules. */
const PURE_AREAS = new Set(CODECS);
const IO_MODULES =
  /^(node:)?(fs|fs\/promises|net|http|https|http2|dgram|child_process|worker_threads|tty)$|^(serialport|usb|undici|better-sqlite3|pino)$/;

/**
 * Files that belong to another ring than their folder's, each with why: an acquirer kind is one folder
 * (src/acquirer/<kind>/), its configuration keys and its factory entry included — for either port, the
 * acquirer's (config.ts, entry.ts) or the card-not-present one (cnp-config.ts, cnp-entry.ts) — so that adding
 * a kind is its folder and `npm run generate` (docs/architecture.md "Adding an acquirer"). `file` is a pattern
 * whose `*` is one folder name.
 */
export const KIND_FILES = [
  {
    file: 'src/acquirer/*/config.ts',
    area: 'src/config',
    why: "a kind's configuration keys and rules (an `AcquirerConfigKind`): the configuration ring reads them to parse and guard `acquirer.<kind>`, so they import only what the configuration may",
  },
  {
    file: 'src/acquirer/*/entry.ts',
    area: 'src/factory',
    why: "a kind's factory entry (an `AcquirerKindEntry`): builds its backend, provisioning and probe from the configuration, as the factory does",
  },
  {
    file: 'src/acquirer/*/cnp-config.ts',
    area: 'src/config',
    why: "a card-not-present kind's keys and rules (a `CnpConfigKind`): the configuration ring reads them to parse and guard `cardNotPresent`",
  },
  {
    file: 'src/acquirer/*/cnp-entry.ts',
    area: 'src/factory',
    why: "a card-not-present kind's factory entry (a `CnpKindEntry`): builds its backend and delivery port from the configuration",
  },
];

const KIND_PATTERNS = KIND_FILES.map((k) => ({
  ...k,
  test: new RegExp(`^${k.file.replace(/[.]/g, '\\.').replace('*', '[a-z][a-z0-9]*')}$`),
}));

/**
 * Whether `file` is a kind's file of KIND_FILES and `module` lies in the same kind's folder: a kind's entry
 * builds its own backend from its folder's modules without the folder's ring surface (src/acquirer/index.ts)
 * naming them, so a new kind's folder is all it takes. The rings still decide the direction (config.ts may
 * import nothing of src/acquirer).
 */
function ownKindFolder(file, module) {
  if (!KIND_PATTERNS.some((k) => k.test.test(file))) return false;
  return module.startsWith(file.slice(0, file.lastIndexOf('/') + 1));
}

/** The area a repository-relative path belongs to, or undefined outside the layered tree. */
export function areaOf(rel) {
  const kindFile = KIND_PATTERNS.find((k) => k.test.test(rel.replace(/\.js$/, '.ts')));
  if (kindFile) return kindFile.area;
  const parts = rel.split('/');
  if (parts[0] === 'tables' || parts[0] === 'test') return parts[0];
  if (parts[0] === 'drivers' && parts.length > 2) return `drivers/${parts[1]}`;
  if (parts[0] === 'src') {
    if (parts.length === 2) return parts[1].startsWith('main.') ? 'src/main' : undefined;
    return `src/${parts[1]}`;
  }
  return undefined;
}

function allowedFor(area) {
  if (area.startsWith('drivers/')) return ALLOWED['drivers/*'];
  return ALLOWED[area];
}

function permits(from, to) {
  if (from === to) return true;
  const allowed = allowedFor(from);
  if (!allowed) return false;
  return allowed.some((a) => a === '*' || a === to || (a === 'drivers/*' && to.startsWith('drivers/')));
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: "imports point down the rings of docs/architecture.md, through each area's index.ts" },
    schema: [],
    messages: {
      up: '{{from}} may not import {{to}} (layers point down: see docs/architecture.md "Rings")',
      unknown: '{{from}} is not a known area; add it to eslint.layers.js',
      mirror: '{{from}} may not import {{to}}: {{why}}',
      impure: '{{from}} is a pure codec and may not import {{module}}',
      surface:
        '{{from}} may import {{to}} only through {{index}}, not {{target}} (one public surface per ring: see docs/architecture.md "Rings")',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const from = areaOf(file);
    if (!from) return {};
    function check(node, source, lazy = false) {
      if (typeof source !== 'string') return;
      if (!source.startsWith('.')) {
        if (PURE_AREAS.has(from) && IO_MODULES.test(source)) {
          context.report({ node, messageId: 'impure', data: { from, module: source } });
        }
        return;
      }
      const target = path
        .relative(root, path.resolve(path.dirname(context.filename), source))
        .split(path.sep)
        .join('/');
      const banned = forbiddenImport(file, target);
      if (banned) {
        context.report({ node, messageId: 'mirror', data: { from: banned.from, to: banned.to, why: banned.why } });
        return;
      }
      const to = areaOf(target);
      if (!to) return;
      if (!allowedFor(from)) {
        context.report({ node, messageId: 'unknown', data: { from } });
        return;
      }
      if (!permits(from, to)) {
        context.report({ node, messageId: 'up', data: { from, to } });
        return;
      }
      const around = aroundSurface(file, target, lazy);
      if (around) context.report({ node, messageId: 'surface', data: around });
    }
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value, true),
    };
  },
};

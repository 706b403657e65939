import path from 'node:path';
import { parseArgs } from 'node:util';
import { acquirerKeys, loadConfig } from '../config/index.js';
import { OmniposError, startError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { sandboxListenOptions } from '../factory/index.js';
import {
  buildSandbox,
  CONFIG_KEY_OF_BASE,
  listenSandbox,
  readInUse,
  recordInUse,
  SANDBOX_BASES,
  sandboxCredentials,
  type FaultSpec,
  type SandboxBase,
} from '../sandbox/index.js';
import { printJson, type Command } from './context.js';
import { serveUntilStopped } from './run-lifecycle.js';

function portOf(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw new OmniposError('INVALID_ARGUMENT', `--port: expected 0 to 65535, got "${text}"`, { port: text });
  return n;
}

export const sandboxRun: Command = {
  path: ['sandbox'],
  summary: 'run the sandbox acquirer host on loopback (omni, e-commerce, wallet APIs and /sandbox/ controls)',
  usage: `omnipos sandbox [--port N] [--host ADDR] [--db FILE] [--withhold-ms MS] [--faults JSON]
                [--callback-url URL] [--config PATH]

Runs the acquirer sandbox host until SIGTERM or SIGINT, each base address of the acquirer on its
own listener as the configuration names them (authorization, requests, queries, parameters,
registration, e-commerce requests, e-commerce queries, wallet; a path on the wrong one is unknown
there), plus its controls on --port:
  GET  /sandbox/ledger       every charge, confirmation, undo and void, with a problems list
  POST /sandbox/clock        {"now": ISO} or {"advanceMs": N}; every Date header follows it
  POST /sandbox/close-day    confirm every pending sale now (the 00:00 America/Sao_Paulo close)
  POST /sandbox/faults       {"route": "saleCreate", "latencyMs"|"status"|"reset"|"drop"|"error", "times"}
                             ("error": a published number, e.g. 309, or wallet code "422.002")
  POST /sandbox/scenario     {"dialect": "pt"|"en", "notFound", "visibilityDelayMs", "outcomes",
                             "registersTerminalQr", "lenient": [rule…]}; GET shows it and the rules
  GET  /sandbox/credentials  the test credentials, merchant and terminal
--faults takes the body of POST /sandbox/faults (one fault or a list) to apply from the start;
--callback-url is the partner URL that receives the wallet undo callback.
Default port: the configuration's sandbox.port (${'18080'} in config/omnipos.json; the bases on
18081-18088, as its acquirer addresses say; --port 0 puts every listener on a free port); the state is kept
in <stateDir>/sandbox/acquirer.db (the embedded host's file too), so a restart loses nothing.

Example:
  omnipos sandbox --port 18080`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        db: { type: 'string' },
        'withhold-ms': { type: 'string' },
        faults: { type: 'string' },
        'callback-url': { type: 'string' },
        config: { type: 'string' },
      },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const log = createLogger({ level: config.values.log.level });
    const withholdMs = values['withhold-ms'] !== undefined ? Number(values['withhold-ms']) : undefined;
    if (withholdMs !== undefined && (!Number.isInteger(withholdMs) || withholdMs < 0)) {
      throw new OmniposError('INVALID_ARGUMENT', `--withhold-ms: expected a whole number of milliseconds`);
    }
    let faults: Record<string, FaultSpec> | undefined;
    if (values.faults !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(values.faults);
      } catch {
        throw new OmniposError(
          'INVALID_ARGUMENT',
          '--faults: expected JSON, e.g. {"route":"saleCreate","reset":"after"}',
        );
      }
      const list = (Array.isArray(parsed) ? parsed : [parsed]) as ({ route?: unknown } & FaultSpec)[];
      faults = {};
      for (const f of list) {
        if (!f || typeof f.route !== 'string')
          throw new OmniposError('INVALID_ARGUMENT', '--faults: each fault needs a "route"');
        const { route, ...spec } = f;
        faults[route] = spec;
      }
    }
    const dbFile = values.db ?? path.join(config.values.stateDir, 'sandbox', 'acquirer.db');
    const sandbox = buildSandbox({
      ...(faults ? { faults } : {}),
      ...(values['callback-url'] ? { walletCallbackUrl: values['callback-url'] } : {}),
      dbFile,
      log,
      ...(config.values.sandbox.outcomeAttempts !== undefined
        ? { outcomeAttempts: config.values.sandbox.outcomeAttempts }
        : {}),
      // terminal-built wallet QR codes are payable only when the configuration builds them (scenario registersTerminalQr)
      scenario: { registersTerminalQr: config.values.qr.provider === 'terminal' },
      ...(withholdMs !== undefined ? { withholdMs } : {}),
    });
    const port = portOf(values.port, config.values.sandbox.port);
    const host = values.host ?? '127.0.0.1';
    // A port taken: one line naming it, the sandbox's database closed, the process exits.
    return serveUntilStopped({
      start: async () => {
        try {
          const running = await listenSandbox(sandbox, { ...sandboxListenOptions(config, port), host });
          ctx.out(`omnipos sandbox listening on ${running.url}\n`);
          for (const b of SANDBOX_BASES) ctx.out(`  ${CONFIG_KEY_OF_BASE[b].padEnd(18)} ${running.urls[b]}\n`);
          // In <stateDir>/sandbox: `sandbox credentials` and `wallet pay` of this state directory read it.
          const forget = recordInUse(path.join(config.values.stateDir, 'sandbox'), running);
          return {
            stop: async () => {
              forget();
              await running.close();
            },
          };
        } catch (e) {
          sandbox.close();
          throw startError('the sandbox host', e);
        }
      },
    });
  },
};

export const sandboxCredentialsCommand: Command = {
  path: ['sandbox', 'credentials'],
  summary: 'print the test credentials the sandbox accepts, and its registered merchant and terminal',
  usage: `omnipos sandbox credentials [--json] [--config PATH]

Prints the omni, wallet and e-commerce test credentials the sandbox host accepts, the registered
test merchant (16-digit merchant number, MCC, name, city) and terminal (8-digit logical number),
and every address of the sandbox (one per base, and the controls): where the sandbox of this state
directory listens when one runs (the daemon's embedded one or \`omnipos sandbox\`, which record it in
<stateDir>/sandbox/addresses.json; its ports moved by sandbox.port 0 too), else as the configuration
names them. "addressesFrom" says which.
They are public on purpose: a production terminal refuses them.

Example:
  omnipos sandbox credentials --json`,
  run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, config: { type: 'string' } },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    // The configured kind's addresses: the sandbox plays omni's bases, so another kind names none of them.
    const a = acquirerKeys(config.values);
    const configured = a.rules.addresses(a.keys);
    // The sandbox of this state directory, when one listens (the daemon's embedded one or `omnipos
    // sandbox`): the addresses it really uses; otherwise the configuration's.
    const inUse = readInUse(path.join(config.values.stateDir, 'sandbox'));
    const addresses: Record<string, string> = {
      controls: inUse?.controls ?? `http://127.0.0.1:${config.values.sandbox.port}`,
    };
    for (const b of SANDBOX_BASES)
      addresses[b satisfies SandboxBase] = inUse?.urls[b] ?? configured[CONFIG_KEY_OF_BASE[b]] ?? '';
    const c = {
      ...sandboxCredentials(),
      addresses,
      addressesFrom: inUse ? `the running sandbox (pid ${inUse.pid})` : 'the configuration (no sandbox running)',
    } as {
      omni: { clientId: string; clientSecret: string };
      ecommerce: { merchantId: string; merchantKey: string };
      merchant: { subordinatedMerchantId: string; merchantNumber: string; mcc: string; name: string; city: string };
      terminal: { terminalId: string };
      addresses: Record<string, string>;
      addressesFrom: string;
    };
    if (values.json) {
      printJson(ctx, c);
      return Promise.resolve(0);
    }
    ctx.out(
      [
        `omni and wallet: client_id ${c.omni.clientId}  client_secret ${c.omni.clientSecret}`,
        `e-commerce:      MerchantId ${c.ecommerce.merchantId}  MerchantKey ${c.ecommerce.merchantKey}`,
        `merchant:        ${c.merchant.name}, ${c.merchant.city} (MCC ${c.merchant.mcc}), number ${c.merchant.merchantNumber}, SubordinatedMerchantId ${c.merchant.subordinatedMerchantId}`,
        `terminal:        ${c.terminal.terminalId}`,
        ...Object.entries(c.addresses).map(([k, u]) => `${`${k}:`.padEnd(17)}${u}`),
        `(addresses from ${c.addressesFrom})`,
        '',
      ].join('\n'),
    );
    return Promise.resolve(0);
  },
};

import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { startDaemon, ensureSupervisorToken } from '../main.js';
import { EvidenceRecorder, parseScript, runHomologation } from '../operations/index.js';
import { printJson, type Command } from './context.js';

export const homologationRun: Command = {
  path: ['homologation', 'run'],
  summary: "run the acquirer's homologation script against the configured host and write the evidence per test",
  usage: `omnipos homologation run SCRIPT [--out DIR] [--json] [--config PATH]

SCRIPT is a JSON file: { "name": "...", "tests": [ { "id": "CT01", "title": "...", "steps": [
  { "sale": { "amount": 1010, "method": "credit", "confirmation": "ecr" }, "expect": { "status": "approved" } },
  { "confirm": {} } | { "undo": {} } | { "cancel": {} } | { "void": { "amount": 500 } }, "expect": { "status": "..." } ] } ] }

Starts the daemon's parts in this process (stop the service first: they share the pinpad and the
database), runs each test through the local API against the configured acquirer host (in the
homologation environment every request carries the acquirer's "Environment: Homologacao"
header), and writes DIR (default <stateDir>/homologation/<time>/): per test exchanges.json (the
requests and answers, card data, tokens and keys masked), receipt-customer.txt and
receipt-merchant.txt, emv.json (the EMV tags, masked by tag) and result.json; summary.json for the
run. Voids are authorized with the supervisor token of the state directory. Refused in
production. Exit 0 when every test passed, 1 when one failed.

Example:
  omnipos homologation run scripts/homologation.json --out /tmp/evidence --json`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { config: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    });
    const file = positionals[0];
    if (!file || positionals.length > 1)
      throw new OmniposError('INVALID_ARGUMENT', 'homologation run: give one SCRIPT file');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new OmniposError(
        'CONFIG_NOT_FOUND',
        `homologation run: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`,
        { file },
      );
    }
    const script = parseScript(text, file);
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const v = config.values;
    if (v.environment === 'production')
      throw new OmniposError(
        'ENVIRONMENT_REFUSED',
        'homologation run: refused in production (use environment homologation)',
      );
    const out = path.resolve(
      values.out ?? path.join(v.stateDir, 'homologation', new Date().toISOString().replace(/[:.]/g, '-')),
    );
    const logDir = path.join(v.stateDir, 'logs');
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const log = createLogger({
      level: v.log.level,
      destination: pino.destination({
        dest: path.join(logDir, 'homologation.log'),
        append: true,
        mkdir: true,
        sync: true,
      }),
    });
    const recorder = new EvidenceRecorder();
    const daemon = await startDaemon({
      config,
      log,
      env: {},
      apiPort: 0,
      sandboxPort: 0,
      acquirerInterceptors: [recorder.interceptor()],
    });
    try {
      const summary = await runHomologation(script, {
        apiUrl: daemon.apiUrl as string,
        token: readFileSync(daemon.apiTokenFile, 'utf8').trim(),
        supervisorToken: ensureSupervisorToken(v.stateDir).token,
        recorder,
        outDir: out,
        emvOf: (id) => (daemon.journal.get(id)?.data as { emv?: Record<string, string> } | undefined)?.emv,
        environment: v.environment,
      });
      if (values.json) printJson(ctx, { out, ...summary });
      else {
        for (const t of summary.tests) {
          const last = t.steps.at(-1);
          ctx.out(
            `${t.ok ? 'PASS' : 'FAIL'} ${t.id}${t.title ? ` ${t.title}` : ''}${t.ok ? '' : `: ${last?.reason ?? ''}`}\n`,
          );
        }
        ctx.out(`${summary.passed} passed, ${summary.failed} failed; evidence in ${out}\n`);
      }
      return summary.failed === 0 ? 0 : 1;
    } finally {
      await daemon.stop();
    }
  },
};

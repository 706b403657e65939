import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { loadConfig, type Config } from '../config/index.js';
import { systemClock, OmniposError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import type { AcquirerProvisioning } from '../engine/index.js';
import { acquirerProvisioning } from '../factory/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { startEmbeddedSandbox } from './embedded-sandbox.js';

/**
 * The configured acquirer's registration for one command (src/factory/acquirer-backend.ts
 * `acquirerProvisioning`): with the sandbox configuration, the embedded sandbox host (the daemon's
 * when it runs, else one started here on the same database). A field the host refuses is
 * INVALID_ARGUMENT (exit 2), naming the field.
 */
async function withRegistration<T>(
  config: Config,
  ctx: CliContext,
  f: (a: AcquirerProvisioning) => Promise<T>,
): Promise<T> {
  const log = createLogger({ level: 'silent' });
  let sandbox: RunningSandbox | undefined;
  try {
    sandbox = await startEmbeddedSandbox(config, log);
    if (sandbox) ctx.err(`• embedded sandbox host started here at ${sandbox.url}\n`);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EADDRINUSE') throw e;
    // The running daemon's embedded sandbox host answers at the configured address.
  }
  const dispatcher = new Agent({ keepAliveTimeout: 5_000 });
  const acquirer = acquirerProvisioning(config, { sandbox, clock: systemClock, log, dispatcher });
  try {
    return await f(acquirer);
  } finally {
    await acquirer.close();
    await dispatcher.close();
    await sandbox?.close();
  }
}

function readBody(file: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `--file: ${file} is not a readable JSON file (${(e as Error).message})`,
      { option: '--file' },
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new OmniposError('INVALID_ARGUMENT', `--file: ${file} must hold a JSON object`, { option: '--file' });
  return raw as Record<string, unknown>;
}

export const registerMerchant: Command = {
  path: ['register', 'merchant'],
  summary: 'register the store at the acquirer (POST /merchants) and print its SubordinatedMerchantId',
  usage: `omnipos register merchant --file MERCHANT.json [--json] [--config PATH]
omnipos register merchant --get SUBORDINATED_MERCHANT_ID [--json] [--config PATH]

Sends the store's registration (the acquirer's fields: TradeName, CompanyName, DocumentNumber,
DocumentType Cpf|Cnpj, Mcc, PhoneNumber, Email, Address {ZipCode, Street, Number, Complement},
Owner {Name, Email, PhoneNumber, MessengerPhone, Gender}) to the registration address with the
registration scope, and prints the SubordinatedMerchantId to put in terminal.subordinatedMerchantId.
--get reads a registered store back. With the sandbox configuration it talks to the embedded
sandbox host (the daemon's, or one started here). The acquirer's refusal names the field at fault.

Example:
  omnipos register merchant --file store.json
  omnipos register merchant --get 4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718 --json

Exit codes: 0 registered (or found); 2 the file or a field is wrong; 3 the acquirer is unreachable.`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        file: { type: 'string' },
        get: { type: 'string' },
        json: { type: 'boolean', default: false },
        config: { type: 'string' },
      },
      strict: true,
    });
    if (!values.file === !values.get)
      throw new OmniposError('INVALID_ARGUMENT', 'give --file MERCHANT.json to register, or --get ID to read one', {
        option: '--file',
      });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const body = values.file ? readBody(values.file) : undefined;
    const store = await withRegistration(config, ctx, (a) => (body ? a.registerStore(body) : a.store(values.get!)));
    if (values.json) printJson(ctx, store.answer);
    else {
      ctx.out(`SubordinatedMerchantId ${store.merchantId}\n`);
      ctx.out(`trade name             ${store.tradeName ?? '-'}\ndocument               ${store.document ?? '-'}\n`);
      if (body)
        ctx.out(
          `next: set terminal.subordinatedMerchantId to it in ${config.source}, then omnipos register terminal\n`,
        );
    }
    return 0;
  },
};

export const registerTerminal: Command = {
  path: ['register', 'terminal'],
  summary: 'register this terminal for the store at the acquirer (POST /terminals)',
  usage: `omnipos register terminal --terminal-id ID [--merchant SUBORDINATED_MERCHANT_ID] (--model N --serial S | --skip-equipment) [--json] [--config PATH]

Registers the terminal's logical number (8 letters or digits) for the store (default: the
configured terminal.subordinatedMerchantId), with its equipment (the acquirer's EquipmentModel
number and the pinpad's serial number, as \`omnipos pinpad info\` prints it) or without
(--skip-equipment). Then set terminal.terminalId and run \`omnipos init\`.

Example:
  omnipos register terminal --terminal-id 42004299 --model 1 --serial PP123456
  omnipos register terminal --terminal-id 42004298 --skip-equipment --json

Exit codes: 0 registered; 2 a field is wrong or the id is taken; 3 the acquirer is unreachable.`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        'terminal-id': { type: 'string' },
        merchant: { type: 'string' },
        model: { type: 'string' },
        serial: { type: 'string' },
        'skip-equipment': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        config: { type: 'string' },
      },
      strict: true,
    });
    const terminalId = values['terminal-id'];
    if (!terminalId || !/^[0-9A-Za-z]{8}$/.test(terminalId))
      throw new OmniposError('INVALID_ARGUMENT', '--terminal-id: 8 letters or digits', { option: '--terminal-id' });
    const skip = values['skip-equipment'];
    if (!skip && (!values.model || !/^\d{1,6}$/.test(values.model) || !values.serial)) {
      throw new OmniposError('INVALID_ARGUMENT', '--model N and --serial S (the equipment), or --skip-equipment', {
        option: '--model',
      });
    }
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const merchant = values.merchant ?? config.values.terminal.subordinatedMerchantId;
    const answer = await withRegistration(config, ctx, (a) =>
      a.registerTerminal({
        merchantId: merchant,
        terminalId,
        ...(skip ? {} : { equipment: { model: Number(values.model), serial: values.serial! } }),
      }),
    );
    if (values.json) printJson(ctx, answer);
    else
      ctx.out(
        `terminal ${terminalId} registered for ${merchant}\nnext: set terminal.terminalId to ${terminalId} in ${config.source}, then omnipos init\n`,
      );
    return 0;
  },
};

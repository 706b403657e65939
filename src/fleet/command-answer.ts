import type { Logger } from '../core/index.js';
import { checkCommand, type FleetCommand } from './commands.js';
import { commandAnswer } from './messages.js';
import type { CommandRefusals } from './refusals.js';

/** What answering a command needs: the refusals' budget, the log, the clock, and what runs a valid command. */
export interface CommandAnswerDeps {
  refusals: CommandRefusals;
  log: Logger;
  now: () => Date;
  run(command: FleetCommand, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * The answer to the command `name` with `payload` (the result message's text): a refusal with its
 * code when the command is not one of the safe ones or its payload is wrong, else what `run`
 * returned or the error it threw. Undefined when a refused command goes unanswered (a flood).
 */
export async function answerCommand(name: string, payload: Buffer, d: CommandAnswerDeps): Promise<string | undefined> {
  const check = checkCommand(name, payload);
  const at = (): string => d.now().toISOString();
  let answer: Record<string, unknown>;
  if (!check.ok) {
    // Counted, told once a minute, answered within a budget (src/fleet/refusals.ts): a flood gets silence.
    if (!d.refusals.refused(name, check.code)) return undefined;
    answer = {
      command: name.slice(0, 64),
      ok: false,
      error: { code: check.code, message: check.reason },
      at: at(),
    };
  } else {
    d.log.info({ command: check.command, requestId: check.requestId }, 'fleet command');
    try {
      answer = {
        command: check.command,
        ok: true,
        result: await d.run(check.command, check.args),
        at: at(),
      };
    } catch (e) {
      const err = e as Error & { code?: string };
      answer = {
        command: check.command,
        ok: false,
        error: { code: err.code ?? 'FAILED', message: err.message },
        at: at(),
      };
    }
  }
  return commandAnswer(check.requestId, answer);
}

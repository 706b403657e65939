/**
 * Every test file runs with the contract check on (vitest.config.ts `setupFiles`): each JSON answer
 * and each event the daemon sends a test is checked against src/api/openapi.json, and a mismatch
 * fails the test that saw it, naming the operation, the status and the path at fault. The file's
 * count of answers and events checked goes to the run's tally (./contract-count.ts prints it).
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, inject } from 'vitest';
import { tally } from '../helpers/contract.js';
import { installContractHook, pending } from '../helpers/contract-hook.js';

installContractHook();

async function mismatches(): Promise<string[]> {
  while (pending.size > 0) await Promise.all([...pending]);
  return tally.failures.splice(0);
}

const fail = (found: string[]): never => {
  throw new Error(`the daemon's answers do not fit its OpenAPI document:\n- ${found.join('\n- ')}`);
};

afterEach(async () => {
  const found = await mismatches();
  if (found.length > 0) fail(found);
});

afterAll(async () => {
  const found = await mismatches();
  const dir = inject('contractCountDir');
  if (dir && (tally.answers > 0 || tally.events > 0))
    appendFileSync(
      path.join(dir, `${process.pid}.jsonl`),
      `${JSON.stringify({ answers: tally.answers, events: tally.events })}\n`,
    );
  tally.answers = 0;
  tally.events = 0;
  if (found.length > 0) fail(found);
});

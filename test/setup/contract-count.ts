/**
 * The run's count of answers and events the contract check held to the document
 * (./contract.ts writes each test file's): printed at the end of `vitest run`, and written to
 * `OMNIPOS_CONTRACT_COUNT` when that names a file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    contractCountDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-contract-'));
  project.provide('contractCountDir', dir);
  return () => {
    let answers = 0;
    let events = 0;
    let files = 0;
    for (const name of readdirSync(dir)) {
      for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n').filter(Boolean)) {
        const c = JSON.parse(line) as { answers: number; events: number };
        answers += c.answers;
        events += c.events;
        files++;
      }
    }
    rmSync(dir, { recursive: true, force: true });
    const figure = { answers, events, testFiles: files, document: 'src/api/openapi.json' };
    console.log(
      `contract: ${answers} answers and ${events} events checked against src/api/openapi.json (${files} test files called the daemon)`,
    );
    const out = process.env.OMNIPOS_CONTRACT_COUNT;
    if (out) writeFileSync(out, `${JSON.stringify(figure)}\n`);
  };
}

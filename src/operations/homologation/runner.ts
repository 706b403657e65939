import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UndiciModule from 'undici';
import { sleep, scrubText, scrubValue } from '../../core/index.js';
import type { EvidenceRecorder } from './evidence.js';
import type { HomologationScript, HomologationStep } from './script.js';

/** undici loads when a homologation runs, not when the daemon (which imports the operations) starts (fast start). */
const undici = (): typeof UndiciModule => createRequire(import.meta.url)('undici') as typeof UndiciModule;

export interface RunnerDeps {
  /** The daemon's local API and its bearer token. */
  apiUrl: string;
  token: string;
  /** The supervisor's token (voids), sent as `x-supervisor-token`. */
  supervisorToken?: string | undefined;
  recorder: EvidenceRecorder;
  /** Where the evidence goes: one directory per test, and summary.json. */
  outDir: string;
  /** The EMV tags the journal kept for a payment after the chip finished (95, 9F10, 9F26, 9F27, 9F37…). */
  emvOf?: ((paymentId: number) => Record<string, string> | undefined) | undefined;
  environment: string;
  /** How long one step may take to settle, ms (default 60 s). */
  stepTimeoutMs?: number;
}

/** What one step came to. */
export interface StepResult {
  step: string;
  ok: boolean;
  /** The status read after the step settled, and the host's return code. */
  status?: string;
  returnCode?: string;
  expected?: { status?: string; returnCode?: string };
  /** Why it failed, or `not available` when this build cannot run it. */
  reason?: string;
}

export interface TestResult {
  id: string;
  title?: string;
  ok: boolean;
  paymentId?: number;
  steps: StepResult[];
  /** Files written for this test, relative to the run's directory. */
  files: string[];
}

export interface RunSummary {
  script: string;
  environment: string;
  startedAt: string;
  finishedAt: string;
  passed: number;
  failed: number;
  tests: TestResult[];
}

type Json = Record<string, unknown>;

const SETTLED_PAYMENT = new Set(['approved', 'confirmed', 'declined', 'cancelled', 'undone', 'needs-refund', 'failed']);
const SETTLED_VOID = new Set(['approved', 'declined', 'refused', 'cancelled', 'undone', 'failed']);

/** Writes JSON already masked; every value passes the scrubber once more as a backstop. */
function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(scrubValue(value), null, 2)}\n`, { mode: 0o600 });
}

/**
 * Runs a homologation script against the daemon's API (which talks to the configured acquirer
 * host) and writes the evidence per test: the masked requests and answers (exchanges.json), the
 * customer's and merchant's receipts (receipt-*.txt), the EMV tags (emv.json) and the outcome
 * (result.json); then summary.json for the run.
 */
export async function runHomologation(script: HomologationScript, d: RunnerDeps): Promise<RunSummary> {
  const started = new Date();
  mkdirSync(d.outDir, { recursive: true, mode: 0o700 });
  const timeout = d.stepTimeoutMs ?? 60_000;
  const api = async (
    method: 'GET' | 'POST',
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json; text: string }> => {
    const res = await undici().request(`${d.apiUrl}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${d.token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    const text = await res.body.text();
    let parsed: Json = {};
    try {
      parsed = text ? (JSON.parse(text) as Json) : {};
    } catch {
      parsed = {};
    }
    return { status: res.statusCode, body: parsed, text };
  };
  const settle = async (p: string, settled: ReadonlySet<string>): Promise<Json> => {
    const end = Date.now() + timeout;
    for (;;) {
      const r = await api('GET', p);
      if (settled.has(String(r.body.status)) || Date.now() > end) return r.body;
      await sleep(50);
    }
  };
  /** The pinpad free and the outbox empty: the test's traffic is over before the next begins. */
  const quiet = async (): Promise<void> => {
    const end = Date.now() + timeout;
    while (Date.now() < end) {
      const h = (await api('GET', '/v1/health')).body as { busy?: boolean; outbox?: { pending?: number } };
      if (!h.busy && (h.outbox?.pending ?? 0) === 0) return;
      await sleep(50);
    }
  };

  const tests: TestResult[] = [];
  for (const test of script.tests) {
    d.recorder.begin(test.id);
    const result: TestResult = {
      id: test.id,
      ...(test.title ? { title: test.title } : {}),
      ok: true,
      steps: [],
      files: [],
    };
    const voids: number[] = [];
    const receipts: Record<string, string> = {};
    for (const step of test.steps) {
      const r = await runStep(step, result, voids, { api, settle, supervisorToken: d.supervisorToken });
      // The receipts as the sale printed them (an undone sale has none to show afterwards).
      if (result.paymentId !== undefined && Object.keys(receipts).length === 0)
        await captureReceipts(api, result.paymentId, receipts);
      const expected = step.expect;
      if (expected) {
        r.expected = expected;
        if (expected.status !== undefined && r.status !== expected.status) r.ok = false;
        if (expected.returnCode !== undefined && r.returnCode !== expected.returnCode) r.ok = false;
        if (!r.ok && !r.reason)
          r.reason = `expected ${JSON.stringify(expected)}, got status ${r.status ?? '-'} return code ${r.returnCode ?? '-'}`;
      }
      result.steps.push(r);
      await quiet();
      if (!r.ok) {
        result.ok = false;
        break;
      }
    }
    d.recorder.begin(undefined);
    const dir = path.join(d.outDir, test.id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeJson(path.join(dir, 'exchanges.json'), d.recorder.exchanges(test.id));
    result.files.push(`${test.id}/exchanges.json`);
    if (result.paymentId !== undefined) {
      for (const [copy, text] of Object.entries(receipts)) {
        writeFileSync(path.join(dir, `receipt-${copy}.txt`), scrubText(text), { mode: 0o600 });
        result.files.push(`${test.id}/receipt-${copy}.txt`);
      }
      const emv = {
        afterChip: d.emvOf?.(result.paymentId) ?? null,
        exchanges: d.recorder
          .exchanges(test.id)
          .filter((e) => e.emv)
          .map((e) => ({ route: e.route, at: e.at, ...e.emv })),
      };
      writeJson(path.join(dir, 'emv.json'), emv);
      result.files.push(`${test.id}/emv.json`);
    }
    writeJson(path.join(dir, 'result.json'), result);
    result.files.push(`${test.id}/result.json`);
    tests.push(result);
  }
  const summary: RunSummary = {
    script: script.name,
    environment: d.environment,
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    passed: tests.filter((t) => t.ok).length,
    failed: tests.filter((t) => !t.ok).length,
    tests,
  };
  writeJson(path.join(d.outDir, 'summary.json'), summary);
  return summary;
}

/** The customer's and the merchant's receipts of a payment, as `GET /v1/payments/{id}/receipt` rebuilds them. */
async function captureReceipts(api: StepTools['api'], paymentId: number, into: Record<string, string>): Promise<void> {
  for (const copy of ['customer', 'merchant'] as const) {
    const r = await api('GET', `/v1/payments/${paymentId}/receipt?format=text&copy=${copy}`);
    if (r.status === 200) into[copy] = typeof r.body.text === 'string' ? r.body.text : r.text;
  }
}

interface StepTools {
  api: (
    method: 'GET' | 'POST',
    p: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: Json; text: string }>;
  settle: (p: string, settled: ReadonlySet<string>) => Promise<Json>;
  supervisorToken: string | undefined;
}

function failed(step: string, status: number, body: Json): StepResult {
  const error = (body.error ?? {}) as { code?: string; message?: string };
  const notAvailable = status === 404 || error.code === 'NOT_AVAILABLE';
  return {
    step,
    ok: false,
    reason: notAvailable
      ? `not available in this build (${error.message ?? `HTTP ${status}`})`
      : `HTTP ${status}: ${error.code ?? ''} ${error.message ?? ''}`.trim(),
  };
}

function read(step: string, body: Json): StepResult {
  return {
    step,
    ok: true,
    ...(typeof body.status === 'string' ? { status: body.status } : {}),
    ...(typeof body.returnCode === 'string' ? { returnCode: body.returnCode } : {}),
  };
}

async function runStep(step: HomologationStep, test: TestResult, voids: number[], t: StepTools): Promise<StepResult> {
  if ('sale' in step) {
    const r = await t.api('POST', '/v1/payments', { confirmation: 'auto', ...step.sale });
    if (r.status !== 202) return failed('sale', r.status, r.body);
    test.paymentId = Number(r.body.id);
    return read('sale', await t.settle(`/v1/payments/${test.paymentId}`, SETTLED_PAYMENT));
  }
  if (test.paymentId === undefined)
    return { step: Object.keys(step)[0] ?? '?', ok: false, reason: 'no sale before this step' };
  if ('void' in step) {
    const r = await t.api(
      'POST',
      `/v1/payments/${test.paymentId}/void`,
      step.void.amount !== undefined ? { amount: step.void.amount } : {},
      t.supervisorToken ? { 'x-supervisor-token': t.supervisorToken } : {},
    );
    if (r.status !== 202 && r.status !== 200) return failed('void', r.status, r.body);
    voids.push(Number(r.body.id));
    return read('void', await t.settle(`/v1/voids/${String(r.body.id)}`, SETTLED_VOID));
  }
  const action = 'confirm' in step ? 'confirm' : 'undo' in step ? 'undo' : 'cancel';
  const r = await t.api('POST', `/v1/payments/${test.paymentId}/${action}`);
  if (r.status !== 200) return failed(action, r.status, r.body);
  return read(action, await t.settle(`/v1/payments/${test.paymentId}`, SETTLED_PAYMENT));
}

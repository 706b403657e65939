import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { BUILT_IN_MERCHANTS } from '../../tables/sandbox/merchants.js';
import { runClose, maybeCloseDay } from './close-day.js';
import type { FaultSpec, SandboxContext } from './context.js';
import type { Faults } from './faults.js';
import { Fields, invalidFields, jsonBody, objectBody, Refusal, type Answer, type SandboxRequest } from './http-kit.js';
import { ledgerReport } from './ledger.js';
import { payPix } from './ecommerce.js';
import { scenario, setScenario, STRICT_RULES, validateScenario } from './scenario.js';

/** What `omnipos sandbox credentials --json` and `GET /sandbox/credentials` print. */
export function sandboxCredentials(): Record<string, unknown> {
  return {
    omni: {
      clientId: SANDBOX_CREDENTIALS.clientId,
      clientSecret: SANDBOX_CREDENTIALS.clientSecret,
      scopes: ['PhysicalCieloTransactional', 'PhysicalCieloMaster'],
    },
    wallet: { clientId: SANDBOX_CREDENTIALS.clientId, clientSecret: SANDBOX_CREDENTIALS.clientSecret },
    ecommerce: { merchantId: SANDBOX_CREDENTIALS.merchantId, merchantKey: SANDBOX_CREDENTIALS.merchantKey },
    merchant: SANDBOX_MERCHANT.merchant,
    terminal: SANDBOX_MERCHANT.terminal,
    /** Every built-in merchant of the one OAuth client, each with its own first terminal. */
    merchants: BUILT_IN_MERCHANTS,
  };
}

/** The host's own controls under `/sandbox/`. Not part of the acquirer's API. */
export function control(
  ctx: SandboxContext,
  faults: Faults,
  req: SandboxRequest & { path: string },
): Answer | Promise<Answer> {
  const key = `${req.method} ${req.path.replace(/\/+$/, '')}`;
  switch (key) {
    case 'GET /sandbox/health':
      return { status: 200, body: { ok: true, now: ctx.clock.now().toISOString() } };
    case 'GET /sandbox/credentials':
      return { status: 200, body: sandboxCredentials() };
    case 'GET /sandbox/ledger':
      maybeCloseDay(ctx);
      return { status: 200, body: ledgerReport(ctx) };
    case 'GET /sandbox/clock':
      return { status: 200, body: { now: ctx.clock.now().toISOString() } };
    case 'POST /sandbox/clock': {
      const body = objectBody(req);
      const f = new Fields(body);
      const now = f.string('now', { optional: true, re: /^\d{4}-\d{2}-\d{2}T/, hint: 'must be an ISO 8601 instant' });
      const advance = f.int('advanceMs', { optional: true, min: 0 });
      f.check();
      if (now === undefined && advance === undefined) throw invalidFields(['now or advanceMs: one is required']);
      const target = now !== undefined ? new Date(now) : new Date(ctx.clock.now().getTime() + (advance as number));
      if (Number.isNaN(target.getTime())) throw invalidFields(['now: not a valid instant']);
      ctx.clock.set(target);
      maybeCloseDay(ctx);
      return { status: 200, body: { now: ctx.clock.now().toISOString() } };
    }
    case 'POST /sandbox/close-day':
      return { status: 200, body: runClose(ctx, 'close run by POST /sandbox/close-day') };
    case 'GET /sandbox/scenario':
      return { status: 200, body: { ...scenario(ctx), rules: STRICT_RULES } };
    case 'POST /sandbox/scenario':
      return { status: 200, body: setScenario(ctx, validateScenario(jsonBody(req))) };
    case 'GET /sandbox/faults':
      return { status: 200, body: faults.list() };
    case 'DELETE /sandbox/faults':
      faults.clear();
      return { status: 200, body: {} };
    case 'POST /sandbox/faults': {
      const body = jsonBody(req);
      const list = Array.isArray(body) ? body : [body];
      for (const item of list) {
        if (!item || typeof item !== 'object') throw invalidFields(['body: a fault object or a list of them']);
        const { route, ...spec } = item as { route?: unknown } & FaultSpec;
        if (typeof route !== 'string') throw invalidFields(['route: is required']);
        faults.set(route, spec);
      }
      return { status: 200, body: faults.list() };
    }
    default: {
      const pix = /^POST \/sandbox\/pix\/([^/]+)\/pay$/.exec(key);
      if (pix) return payPix(ctx, decodeURIComponent(pix[1] as string));
      throw new Refusal(404, { error: `no sandbox control ${key}` });
    }
  }
}

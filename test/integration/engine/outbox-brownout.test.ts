import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OmniDeliveryAdapter } from '../../../src/acquirer/omni/delivery.js';
import { createAcquirer } from '../../../src/acquirer/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/log/index.js';
import { OutboxForwarder } from '../../../src/engine/outbox/forwarder.js';
import type { AcquirerDeliveryPort } from '../../../src/engine/ports.js';
import { OUTBOX_OPERATIONS, idempotencyKey, type UndoTask } from '../../../src/engine/outbox/tasks.js';
import { Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';
import { json, loopback } from '../../helpers/loopback.js';

/**
 * A brown-out over real HTTP on loopback: the host takes every connection and never answers
 * (the token excepted). 50 pending undos, one forwarder pass: each task costs an undo by order id
 * and a query, both timing out. The pass runs `OUTBOX_CONCURRENCY` (default 8) tasks at once.
 * Figures (printed, never asserted): `OUTBOX_CONCURRENCY=1 npx vitest run test/integration/engine/outbox-brownout.test.ts`
 * for the old one-at-a-time pass.
 */
const tempStore = useTempStores();
const log = createLogger({ level: 'silent' });
const TIMEOUT_MS = 200;
const TASKS = 50;
const concurrency = Number(process.env.OUTBOX_CONCURRENCY ?? 8);

let inFlight = 0;
let maxInFlight = 0;
let server: Awaited<ReturnType<typeof loopback>>;
beforeAll(async () => {
  server = await loopback((req, res): void => {
    if (req.url === '/oauth2/token')
      return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 86399 });
    // Never answered: the client's timeout ends it.
    void res;
  });
});
afterAll(async () => {
  await server.close();
});

/** The port, counting the attempts' calls in flight at once (each a real HTTP exchange, retries included). */
function counted(port: AcquirerDeliveryPort): AcquirerDeliveryPort {
  const track = async <T>(call: () => Promise<T>): Promise<T> => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await call();
    } finally {
      inFlight--;
    }
  };
  return {
    confirm: (p, e) => track(() => port.confirm(p, e)),
    undo: (p, e) => track(() => port.undo(p, e)),
    undoByOrderId: (o, e) => track(() => port.undoByOrderId(o, e)),
    queryByOrderId: (o, x) => track(() => port.queryByOrderId(o, x)),
  };
}

describe('the outbox in a brown-out (issue 17)', () => {
  it(`50 pending undos: one pass attempts them all, at most ${concurrency} at once`, async () => {
    const acquirer = createAcquirer({
      settings: {
        authUrl: server.url,
        requestUrl: server.url,
        queryUrl: server.url,
        parametersUrl: server.url,
        walletUrl: server.url,
        ecommerceUrl: server.url,
        clientId: 'cid',
        timeoutMs: TIMEOUT_MS,
      },
      clientSecret: { reveal: () => 's' },
      environment: 'sandbox',
      clock: systemClock,
      log,
      dispatcher: new Agent({ connections: 64 }),
    });
    const db = tempStore();
    const outbox = new Outbox(db);
    const sentAt = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < TASKS; i++) {
      const payload: UndoTask = { merchantOrderId: String(263290010000000 + i), sentAt };
      outbox.enqueue({
        operation: OUTBOX_OPERATIONS.undo,
        idempotencyKey: idempotencyKey('undo', payload.merchantOrderId),
        payload: { ...payload },
        at: new Date(),
      });
    }
    const forwarder = new OutboxForwarder({
      db,
      outbox,
      port: counted(new OmniDeliveryAdapter(acquirer.omni)),
      clock: systemClock,
      log,
      onSettled: () => undefined,
      undoRace: { processingWindowMs: 2 * TIMEOUT_MS },
      concurrency,
    });
    const t0 = performance.now();
    expect(await forwarder.runOnce()).toBe(TASKS);
    const ms = performance.now() - t0;
    console.log(
      `brown-out pass: ${TASKS} undos, concurrency ${concurrency}, client timeout ${TIMEOUT_MS} ms: ${Math.round(ms)} ms (${(ms / TIMEOUT_MS).toFixed(1)} timeouts); at most ${maxInFlight} attempts in flight`,
    );
    expect(maxInFlight).toBeLessThanOrEqual(concurrency);
    // Every task was attempted once and is still open (nothing concluded from a brown-out).
    expect(outbox.depth().pending).toBe(TASKS);
    expect(outbox.due(new Date(Date.now() + 3_600_000), 100).every((t) => t.attempts === 1)).toBe(true);
    db.close();
  }, 120_000);
});

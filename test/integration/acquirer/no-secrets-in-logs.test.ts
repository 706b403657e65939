import { Writable } from 'node:stream';
import path from 'node:path';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createAcquirer } from '../../../src/acquirer/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { buildSandbox, listenSandbox, sandboxSettings } from '../../../src/sandbox/index.js';
import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';
import { EMV_CONFIRM, card, cardNode, sale } from '../../helpers/sandbox.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

describe('logs', () => {
  const tempDir = useTempDirs();
  it('at debug, neither side logs the token, the client secret, the PAN, the track or the PIN block', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createLogger({ level: 'trace', destination: sink });
    const dir = tempDir('omnipos-logs-');
    const running = await listenSandbox(buildSandbox({ dbFile: path.join(dir, 's.db'), log, withholdMs: 300 }));
    const acquirer = createAcquirer({
      settings: { ...sandboxSettings(running), clientId: SANDBOX_CREDENTIALS.clientId, timeoutMs: 200 },
      clientSecret: { reveal: () => SANDBOX_CREDENTIALS.clientSecret },
      environment: 'homologation',
      clock: { now: () => new Date() },
      log,
      dispatcher: new Agent(),
    });
    try {
      const c = card(0);
      const node = cardNode(c);
      const req = sale(1000, { card: node });
      const a = await acquirer.omni.createSale(req);
      await acquirer.omni.confirmSale(a.Payment.PaymentId, EMV_CONFIRM);
      await acquirer.omni.authorize(sale(1012)); // withheld: a warning is logged
      await acquirer.omni.authorize(req); // duplicate: a problem is logged
      const token = await acquirer.tokens.token('transactional');
      const text = lines.join('');
      expect(text.length).toBeGreaterThan(0);
      for (const secret of [
        token,
        SANDBOX_CREDENTIALS.clientSecret,
        c.pan,
        c.track2,
        node.TrackTwoData ?? 'x',
        node.PinBlock?.EncryptedPinBlock ?? 'x',
      ]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await acquirer.close();
      await running.close();
    }
  });
});

import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { createLogger } from '../../../src/core/log/index.js';
import { deriveTdesKeys } from '../../../src/crypto/index.js';
import { startTestDaemon } from '../../helpers/daemon.js';
import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';

const log = createLogger({ level: 'silent' });

type KeySlots = {
  readAt: string | null;
  error: string | null;
  configured: { pin: number; data: number };
  pin: Record<string, { present: boolean; ksn: string | null }> | null;
  data: Record<string, { present: boolean; ksn: string | null }> | null;
};

/** A daemon on the virtual pinpad (which holds the sandbox's DUKPT keys in slots 01 and 02), with `env` on top. */
async function withDaemon(
  env: Record<string, string>,
  f: (d: {
    health: () => Promise<{ text: string; body: { problems: string[]; pinpad: { keySlots: KeySlots | null } } }>;
    cliEnv: Record<string, string>;
  }) => Promise<void>,
): Promise<void> {
  const t = await startTestDaemon({ prefix: 'omnipos-keyslots-', env, log });
  const { token, stateDir } = t;
  const daemon = t;
  try {
    const health = async () => {
      const res = await request(`${daemon.apiUrl}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.body.text();
      return { text, body: JSON.parse(text) as { problems: string[]; pinpad: { keySlots: KeySlots | null } } };
    };
    await f({
      health,
      cliEnv: {
        ...env,
        OMNIPOS_STATE_DIR: stateDir,
        OMNIPOS_API__PORT: new URL(daemon.apiUrl).port,
        OMNIPOS_ACQUIRER__AUTH_URL: daemon.sandbox.urls.authorization,
      },
    });
  } finally {
    await t.stop();
  }
}

type Health = { text: string; body: { problems: string[]; pinpad: { keySlots: KeySlots | null } } };

async function readSlots(health: () => Promise<Health>): Promise<Health> {
  for (let i = 0; i < 200; i++) {
    const h = await health();
    if (h.body.pinpad.keySlots?.readAt) return h;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the daemon never read the key slots');
}

async function diag(env: Record<string, string>) {
  let out = '';
  const code = await runCli(['diag', '--json'], { out: (s) => (out += s), err: () => undefined, env });
  let text = '';
  await runCli(['diag'], { out: (s) => (text += s), err: () => undefined, env });
  return {
    code,
    report: JSON.parse(out) as { source: string; problems: string[]; keys: Record<string, unknown> },
    text,
  };
}

describe('the DUKPT key slots, read by the daemon while it holds the pinpad', () => {
  it('GET /v1/health shows each slot holding a key, the configured ones, the PIN key KSN — never a key; omnipos diag shows them from the daemon', async () => {
    await withDaemon({}, async ({ health, cliEnv }) => {
      const h = await readSlots(health);
      const k = h.body.pinpad.keySlots!;
      expect(k.error).toBeNull();
      expect(k.configured).toEqual({ pin: 1, data: 2 });
      // The KSN: FFFFF + the sandbox's KSI + device id + counter (docs/acquirer.md), from GIX PP_KSNTDESP01.
      expect(k.pin?.['01']).toEqual({
        present: true,
        ksn: expect.stringMatching(new RegExp(`^FFFFF${SANDBOX_KEYS.ksi}[0-9A-F]{10}$`)),
      });
      expect(k.data?.['02']).toMatchObject({ present: true });
      // No key material anywhere in the answer: not the BDK, not the initial keys derived from it.
      const keys = deriveTdesKeys(SANDBOX_KEYS.bdk, k.pin!['01']!.ksn!);
      const secrets = [
        SANDBOX_KEYS.bdk,
        ...[keys.ipek, keys.transactionKey, keys.pinKey, keys.dataKeyRequest].map((b) => b.toString('hex')),
      ];
      for (const s of secrets) expect(h.text.toUpperCase()).not.toContain(s.toUpperCase());
      expect(h.body.problems.filter((p) => p.includes('DUKPT'))).toEqual([]);

      const d = await diag(cliEnv);
      expect(d.report.source).toBe('daemon');
      expect(d.report.keys).toMatchObject({
        pinKeySlot: 1,
        pinKeyPresent: true,
        dataKeySlot: 2,
        dataKeyPresent: true,
        pinKsn: k.pin!['01']!.ksn,
        readAt: k.readAt,
      });
      expect(d.report.keys.note).toBeUndefined();
      expect(d.text).toMatch(
        /^key slots +PIN key in slot 1: yes \(KSN [0-9A-F]{20}\); data key in slot 2: yes; read by the daemon at /m,
      );
    });
  }, 60_000);

  it('a configured slot the pinpad holds no key in is shown absent, and health and diag say so', async () => {
    await withDaemon({ OMNIPOS_PINPAD__DATA_KEY_SLOT: '7' }, async ({ health, cliEnv }) => {
      const h = await readSlots(health);
      expect(h.body.pinpad.keySlots?.data?.['07']).toEqual({ present: false, ksn: null });
      expect(h.body.problems).toContain('pinpad: no DUKPT data key in slot 7');
      const d = await diag(cliEnv);
      expect(d.report.keys).toMatchObject({ dataKeySlot: 7, dataKeyPresent: false });
      expect(d.report.problems).toContain('pinpad: no DUKPT data key in slot 7');
      expect(d.code).toBe(3);
    });
  }, 60_000);
});

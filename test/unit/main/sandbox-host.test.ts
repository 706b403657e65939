import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { Held } from '../../../src/main/held.js';
import { startEmbeddedSandbox } from '../../../src/main/sandbox-host.js';
import { TEST_STORE, WS15_PATH } from '../../../src/sandbox/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/** The embedded sandbox starts the webservice 1.5 host on a listener of its own when `cardNotPresent` names it. */
const tempDir = useTempDirs();
const log = createLogger({ level: 'silent' });

const config = (env: Record<string, string> = {}) =>
  loadConfig({ env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: tempDir(), ...env } });

const ws15Env = (url: string, keyFile = ''): Record<string, string> => ({
  OMNIPOS_CARD_NOT_PRESENT__KIND: 'webservice15',
  OMNIPOS_CARD_NOT_PRESENT__URL: url,
  OMNIPOS_CARD_NOT_PRESENT__AFFILIATION: TEST_STORE.affiliation,
  OMNIPOS_CARD_NOT_PRESENT__KEY_FILE: keyFile,
});

function keyFile(): string {
  const file = path.join(tempDir(), 'ws15.key');
  writeFileSync(file, `${TEST_STORE.key}\n`, { mode: 0o600 });
  return file;
}

describe('the embedded sandbox and the webservice 1.5 host', () => {
  it('cardNotPresent webservice15 on a loopback url of port 0: its host listens on a free port, read back, the configured path kept', async () => {
    const c = config(ws15Env(`http://127.0.0.1:0${WS15_PATH}`, keyFile()));
    const held = new Held(log);
    const sandbox = await startEmbeddedSandbox(held, c, log, 0);
    try {
      const url = sandbox?.webservice15Url;
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${WS15_PATH.replace(/\./g, '\\.')}$`));
      // Port 0 asked any free port: the one it took is read back.
      expect(Number(new URL(url!).port)).toBeGreaterThan(0);
      // The service's own refusal of a form without `mensagem` (erro 1): it is the webservice 1.5 that answers.
      const res = await request(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'x=1',
      });
      expect(res.statusCode).toBe(200);
      expect(await res.body.text()).toMatch(/<erro[\s\S]*<codigo>001<\/codigo>/);
    } finally {
      await sandbox?.close();
    }
    // Closed with the sandbox.
    await expect(request(sandbox!.webservice15Url!, { method: 'POST' })).rejects.toThrow();
  });

  it("another kind, or the acquirer's own test host, starts no webservice 1.5 listener", async () => {
    for (const c of [config(), config(ws15Env(`https://qasecommerce.cielo.com.br${WS15_PATH}`, keyFile()))]) {
      const sandbox = await startEmbeddedSandbox(new Held(log), c, log, 0);
      expect(sandbox?.webservice15Url).toBeUndefined();
      await sandbox?.close();
    }
  });
});

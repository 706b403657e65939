import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log/index.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';

// Crashes the fuzz campaign (npm run fuzz, issue 23) found, each kept as a test over the real
// thing: raw HTTP over loopback, so the request target reaches the host exactly as sent.

/** Sends `raw` to 127.0.0.1:`port` and returns the status line's code. */
function rawStatus(port: number, raw: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a status: ${JSON.stringify(text)}`)));
  });
}

describe('sandbox: request targets a URL parser reads as a host', () => {
  let h: Harness;
  const errors: string[] = [];
  beforeAll(async () => {
    h = await startHarness({
      extra: { log: createLogger({ level: 'error', destination: { write: (s: string) => void errors.push(s) } }) },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  // Fuzz counterexample (sandbox-requests): POST // with a JSON body answered 500 "Internal error"
  // (new URL('//', base) throws "Invalid URL"); the host has no such path: 404, nothing logged.
  it.each([
    ['authorization', 'POST //'],
    ['wallet', 'POST //'],
    ['requests', 'GET //1/physicalSales'],
    ['wallet', 'GET ///padraoq/v1/publicKey'],
  ] as const)('%s: %s is an unknown path (404), not an internal error', async (base, line) => {
    const status = await rawStatus(
      h.running.ports[base],
      `${line} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('the controls listener too', async () => {
    // the controls answer only a loopback Host (DNS rebinding, test/security/host-check.test.ts)
    const status = await rawStatus(h.running.port, 'GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(status).toBe(404);
    expect(errors).toEqual([]);
  });
});

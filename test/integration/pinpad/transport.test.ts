import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SerialTransport } from '../../../drivers/transport/serial.js';
import { TcpTransport } from '../../../drivers/transport/tcp.js';
import { isTransportError, type Transport } from '../../../drivers/transport/transport.js';
import { HAS_SOCAT, ptyPair, stop } from '../../helpers/socat.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const opened: Transport[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function readAll(t: Transport, n: number): Promise<Uint8Array> {
  const parts: number[] = [];
  while (parts.length < n) {
    const c = await t.read();
    if (!c) break;
    parts.push(...c);
  }
  return Uint8Array.from(parts);
}

describe('TcpTransport over real loopback', () => {
  it('moves bytes both ways, reports the peer going away as disconnected, and refuses writes after', async () => {
    let peer: net.Socket | undefined;
    const server = net.createServer((s) => {
      peer = s;
      s.on('data', (d) => s.write(d));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const t = new TcpTransport({ host: '127.0.0.1', port });
    opened.push(t);
    await t.open();
    await t.write(Uint8Array.of(1, 2, 3));
    expect(await readAll(t, 3)).toEqual(Uint8Array.of(1, 2, 3));
    peer!.destroy();
    await expect(t.read()).rejects.toSatisfy((e) => isTransportError(e, 'TRANSPORT_DISCONNECTED'));
    await expect(t.write(Uint8Array.of(4))).rejects.toSatisfy((e) => isTransportError(e, 'TRANSPORT_DISCONNECTED'));
    server.close();
  });

  it('fails to open a port nobody listens on with TRANSPORT_OPEN_FAILED', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((r) => server.close(r));
    await expect(new TcpTransport({ host: '127.0.0.1', port }).open()).rejects.toSatisfy((e) =>
      isTransportError(e, 'TRANSPORT_OPEN_FAILED'),
    );
  });

  it('close() settles a pending read with null', async () => {
    const server = net.createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const t = new TcpTransport({ host: '127.0.0.1', port: (server.address() as net.AddressInfo).port });
    await t.open();
    const pending = t.read();
    await t.close();
    expect(await pending).toBeNull();
    server.close();
  });
});

describe.skipIf(!HAS_SOCAT)('SerialTransport over a real pseudo-terminal pair (socat)', () => {
  const tempDir = useTempDirs();
  it('moves bytes, and reports EIO after the pty goes away as disconnected', async () => {
    const dir = tempDir('omnipos-pty-');
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    const socat = await ptyPair(a, b);
    const ta = new SerialTransport({ path: a });
    const tb = new SerialTransport({ path: b });
    opened.push(ta, tb);
    await ta.open();
    await tb.open();
    await ta.write(Uint8Array.of(0x16, 0x4f, 0x50, 0x4e, 0x17, 0xa8, 0xa9));
    expect(await readAll(tb, 7)).toEqual(Uint8Array.of(0x16, 0x4f, 0x50, 0x4e, 0x17, 0xa8, 0xa9));
    const lost = expect(ta.read()).rejects.toSatisfy((e) => isTransportError(e, 'TRANSPORT_DISCONNECTED'));
    await stop(socat);
    await lost;
  });

  it('fails to open a missing path with TRANSPORT_OPEN_FAILED', async () => {
    await expect(new SerialTransport({ path: '/nonexistent/tty' }).open()).rejects.toSatisfy((e) =>
      isTransportError(e, 'TRANSPORT_OPEN_FAILED'),
    );
  });
});

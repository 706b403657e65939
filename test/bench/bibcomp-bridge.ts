/**
 * Overhead per command through the BibComp bridge beside the direct ABECS driver, on the same
 * virtual pinpad (in this process, fast timing profile) over TCP loopback: the same SecurePinpad,
 * once on TcpTransport (secure OPN, then DSP and GIX sealed) and once on BibcompTransport with the
 * test library (test/fixtures/bibcomp, built with cc: no secure channel through its text, so DSP and
 * GIN in clear). The bridge adds the library's framing in C, koffi worker-thread hops (start, polls,
 * abort) and the re-framing for the link. Wall time and this process's CPU (user + system: driver,
 * bridge, library threads and the virtual pinpad) per command, the bridge with its daemon default
 * (poll 20 ms). A short run.
 *
 * Run: npx tsx test/bench/bibcomp-bridge.ts [iterations, default 150]
 */
import { generateKeyPairSync } from 'node:crypto';
import { BibcompTransport, loadBibcomp } from '../../drivers/bibcomp/index.js';
import { SecurePinpad, terminalKeyFromPem } from '../../drivers/pinpad/index.js';
import type { Transport } from '../../drivers/transport/transport.js';
import { TcpTransport } from '../../drivers/transport/tcp.js';
import { VirtualPinpad } from '../../src/sim/pinpad/server.js';
import { buildBibcomp } from '../helpers/bibcomp-build.js';

const N = Number(process.argv[2] ?? 150);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
const terminalKey = terminalKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

async function measure(name: string, transport: () => Transport): Promise<{ wallMs: number; cpuMs: number }> {
  const pinpad = new SecurePinpad({ transport, terminalKey, probeIntervalMs: 0 });
  await pinpad.connect();
  for (let i = 0; i < 10; i++) await pinpad.display('WARM UP'); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    await pinpad.display(`BENCH ${i}`);
    await pinpad.info({ refresh: true });
  }
  const wallMs = (performance.now() - t0) / (2 * N);
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / (2 * N);
  await pinpad.close();
  console.log(
    `${name.padEnd(40)} ${wallMs.toFixed(3)} ms wall/command  ${cpuMs.toFixed(3)} ms CPU/command  (${2 * N} commands: DSP + GIX sealed, or DSP + GIN through the library)`,
  );
  return { wallMs, cpuMs };
}

const sim = new VirtualPinpad();
await sim.start();
const calls = loadBibcomp(buildBibcomp());
const direct = await measure(
  'direct ABECS driver (TcpTransport)',
  () => new TcpTransport({ host: '127.0.0.1', port: sim.port }),
);
const bridged = await measure(
  'BibComp bridge (test library, koffi)',
  () => new BibcompTransport({ calls, port: `127.0.0.1:${sim.port}` }),
);
console.log(
  `bridge / direct: wall ×${(bridged.wallMs / direct.wallMs).toFixed(2)}, CPU ×${(bridged.cpuMs / direct.cpuMs).toFixed(2)}; added ${(bridged.wallMs - direct.wallMs).toFixed(3)} ms wall, ${(bridged.cpuMs - direct.cpuMs).toFixed(3)} ms CPU per command`,
);
console.log('at 19200 bps a 100-byte command and answer take ~104 ms on the wire (10 bits a byte, ABECS §2.1)');
await sim.stop();

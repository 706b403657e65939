/**
 * The pinpad driver's own CPU time per command against the time its bytes take on the wire at
 * 19200 bps (8N1: 10 bits a byte, ABECS §2.1). The driver runs its real link (decoder, link machine,
 * queue, codecs, timers) against an in-memory peer that answers each command with the real PPC930's
 * answer from the public capture (transcao_completa_com_scope.txt: GIX lines 82-145, GCX 242-249,
 * GOX 339-349, FCX 413-423), framed by the test's own encoder. CPU is process.cpuUsage (user +
 * system) over many commands; wire bytes are the link's counters. Run: npx vitest bench --run test/bench/pinpad-driver.bench.ts
 */
import { readFileSync } from 'node:fs';
import { bench, describe } from 'vitest';
import { DSP, GIX, Pinpad, card, control } from '../../drivers/pinpad/index.js';
import { ChunkQueue } from '../../drivers/transport/chunk-queue.js';
import type { Transport } from '../../drivers/transport/transport.js';
import { packet } from '../integration/pinpad/scripted-peer.js';

const LOG = JSON.parse(readFileSync(new URL('../vectors/pinpad/ppc930-log.json', import.meta.url), 'utf8')) as {
  packets: { lines: string; hex: string }[];
};
const pkt = (lines: string): Buffer => {
  const raw = Buffer.from(LOG.packets.find((p) => p.lines === lines)!.hex, 'hex');
  return raw.subarray(1, raw[raw.length - 1] === 0x17 ? raw.length - 1 : raw.length - 3);
};
const gixFirstBlock = pkt('82-145').subarray(0, 9 + 930);
const ANSWERS: Record<string, Buffer> = {
  OPN: packet('OPN000'),
  DSP: packet('DSP000'),
  GIX: packet(gixFirstBlock),
  GCX: packet(pkt('242-249')),
  GOX: packet(pkt('339-349')),
  FCX: packet(pkt('413-423')),
};

/** The peer in the same process: ACK, then the captured answer, on the next turn of the event loop. */
class CapturedPeer implements Transport {
  readonly description = 'memory:ppc930-capture';
  isOpen = false;
  private queue = new ChunkQueue();
  open(): Promise<void> {
    this.isOpen = true;
    return Promise.resolve();
  }
  read(): Promise<Uint8Array | null> {
    return this.queue.read();
  }
  write(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 1 && bytes[0] === control.CAN) setImmediate(() => this.queue.push(Uint8Array.of(control.EOT)));
    else if (bytes[0] === control.SYN) {
      const answer = ANSWERS[Buffer.from(bytes.subarray(1, 4)).toString('latin1')];
      setImmediate(() => {
        this.queue.push(Uint8Array.of(control.ACK));
        if (answer) this.queue.push(answer);
      });
    }
    return Promise.resolve();
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.isOpen = false;
    this.queue.end(null);
    return Promise.resolve();
  }
}

const pinpad = new Pinpad({ transport: () => new CapturedPeer(), probeIntervalMs: 0, reconnect: { enabled: false } });
await pinpad.connect();

const WIRE_S_PER_BYTE = control.WIRE_BITS_PER_BYTE / control.WIRE_BPS;
const GCX_REQ: card.GcxRequest = {
  amount: 1,
  date: '251111',
  time: '173647',
  acquirer: '02',
  contactless: true,
  timeoutS: 30,
  message: 'APROXIME',
};
const GOX_REQ = {
  acquirer: '02',
  amount: 1,
  pinKeyIndex: 1,
  noOfflineApproval: true,
  risk: { floorLimit: 0, targetPercent: 0, threshold: 0, maxTargetPercent: 0 },
  tags: ['9F26', '9F27'],
  timeoutS: 30,
} as card.GoxRequest;
const COMMANDS: [string, () => Promise<unknown>][] = [
  ['DSP', () => pinpad.run(DSP, ['PAGAMENTO', 'APROVADO'])],
  ['GIX (940-byte answer)', () => pinpad.run(GIX, [0x8001, 0x8002, 0x8003])],
  ['GCX', () => pinpad.run(card.GCX, GCX_REQ)],
  ['GOX', () => pinpad.run(card.GOX, GOX_REQ)],
  ['FCX', () => pinpad.run(card.FCX, { outcome: 'approved', arc: '00', tags: ['9F26', '9F27'] })],
];

/** CPU seconds per command and wire seconds per command, over `n` commands after a warm-up. */
async function ratio(name: string, run: () => Promise<unknown>, n: number): Promise<void> {
  for (let i = 0; i < 50; i++) await run();
  const c0 = { ...pinpad.counters! };
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await run();
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6 / n;
  const bytes = (pinpad.counters!.bytesOut - c0.bytesOut + pinpad.counters!.bytesIn - c0.bytesIn) / n;
  const wireS = bytes * WIRE_S_PER_BYTE;
  console.log(
    `[pinpad-driver] ${name}: ${bytes.toFixed(0)} bytes = ${(wireS * 1000).toFixed(1)} ms on the wire at 19200 bps; ` +
      `driver CPU ${(cpuS * 1000).toFixed(3)} ms (incl. the in-memory peer); CPU/wire = ${((cpuS / wireS) * 100).toFixed(2)} %`,
  );
}

for (const [name, run] of COMMANDS) await ratio(name, run, 500);

describe('pinpad driver per command (real link, captured PPC930 answers)', () => {
  for (const [name, run] of COMMANDS) {
    bench(name, async () => {
      await run();
    });
  }
});

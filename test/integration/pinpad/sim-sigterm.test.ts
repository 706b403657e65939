import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writePacket } from '../../../src/sim/pinpad/wire/link-bytes.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';

const ascii = (s: string) => new TextEncoder().encode(s);

/**
 * `omnipos sim pinpad` asked to stop (SIGTERM) while a command is held in a `delay` fault and a controller is still
 * connected: it ends at once, exit code 0. On 333e812 it waited the fault's delay out (the engine was never reset at
 * stop, the delay was a bare timer) and a connected controller kept it alive after: the helpers SIGKILLed it.
 */
describe('omnipos sim pinpad stops on SIGTERM with a command held and a controller connected', () => {
  let sim: SimProcess | undefined;
  afterEach(async () => {
    await sim?.stop('SIGKILL');
  });

  it('exits 0 without waiting out a ten-minute delay', async () => {
    sim = await startSim([]);
    await sim.fault({ kind: 'delay', ms: 600_000 });
    const terminal = net.connect({ host: '127.0.0.1', port: sim.tcp });
    terminal.on('error', () => undefined);
    await new Promise((r) => terminal.once('connect', r));
    terminal.write(writePacket(ascii('OPN')));
    // The command is in the pinpad, held by the fault (its state says received), when the stop comes.
    for (let i = 0; i < 200 && !(await sim.state()).received.includes('OPN'); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await sim.state()).received).toContain('OPN');
    const child = sim.child;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    terminal.destroy();
  }, 60_000);
});

import { parseArgs } from 'node:util';
import { OmniposError } from '../core/index.js';
import { serveControl, TIMING_NAMES, TIMING_SCALE, VirtualPinpad, type TimingName } from '../sim/index.js';
import { intOption } from './options.js';
import type { CliContext, Command } from './context.js';

/** `--timing-scale`: a number within TIMING_SCALE, or undefined when not given. */
function scaleOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !(n >= TIMING_SCALE.min && n <= TIMING_SCALE.max)) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `--timing-scale: expected a number from ${TIMING_SCALE.min} to ${TIMING_SCALE.max}, got ${JSON.stringify(v)}`,
      { option: 'timing-scale' },
    );
  }
  return n;
}

/** Resolves when the process is asked to stop. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
}

export const simPinpad: Command = {
  path: ['sim', 'pinpad'],
  summary: 'run the virtual ABECS pinpad on a TCP port or a pseudo-terminal',
  usage: `omnipos sim pinpad (--tcp PORT | --pty PATH) [--control PORT] [--classic] [--typing-ms MS|never]
                      [--serial TEXT] [--model TEXT] [--timing fast|ppc930] [--timing-scale X] [--answers 2.20|2.12]
                      [--memory FILE]

Runs a virtual pinpad that speaks ABECS 2.20 until stopped (SIGTERM/SIGINT).
  --tcp PORT       listen for the terminal on 127.0.0.1:PORT (0 = any free port)
  --pty PATH       also appear as a pseudo-terminal at PATH (needs socat; PATH survives replugs)
  --control PORT   JSON-lines control port for faults, keys and unplug (0 = any free port)
  --classic        a pinpad that knows only the classic commands (answers GIX with ERR010)
  --typing-ms MS   how long the simulated customer takes to type (default 50; "never" waits for keys)
  --timing NAME    processing time per command: fast (none, the default) or ppc930 (a real Gertec
                   PPC930's, from a public log: secure OPN 3 s, full GIX 8 s, GOX 2 s, loads by size)
  --timing-scale X every processing time multiplied by X (0.01 to 10, default 1: the real times)
  --answers VER    2.20 (default) or 2.12: answers as the PPC930 of the public log gives them
                   (2.12-era GIX ids and order, DEX options refused)
  --memory FILE    what the pinpad keeps across power cycles (its DUKPT counters) lives in FILE:
                   started again on it, it goes on where it stopped (a new FILE is a new pinpad)
Prints one JSON line when ready: {"ready":true,"tcp":PORT,"pty":PATH,"control":PORT}.

Example:
  omnipos sim pinpad --tcp 7001 --control 7002`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({
      args,
      options: {
        tcp: { type: 'string' },
        pty: { type: 'string' },
        control: { type: 'string' },
        classic: { type: 'boolean' },
        'typing-ms': { type: 'string' },
        serial: { type: 'string' },
        model: { type: 'string' },
        timing: { type: 'string' },
        'timing-scale': { type: 'string' },
        answers: { type: 'string' },
        memory: { type: 'string' },
      },
      strict: true,
    });
    if (values.tcp === undefined && values.pty === undefined)
      throw new OmniposError('INVALID_ARGUMENT', 'give --tcp PORT or --pty PATH', {});
    if (values.timing !== undefined && !(TIMING_NAMES as readonly string[]).includes(values.timing)) {
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `--timing: expected one of ${TIMING_NAMES.join(', ')}, got ${JSON.stringify(values.timing)}`,
        { option: 'timing' },
      );
    }
    const timingScale = scaleOption(values['timing-scale']);
    if (values.answers !== undefined && values.answers !== '2.20' && values.answers !== '2.12') {
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `--answers: expected 2.20 or 2.12, got ${JSON.stringify(values.answers)}`,
        { option: 'answers' },
      );
    }
    const typing = values['typing-ms'] === 'never' ? null : intOption(values['typing-ms'], 'typing-ms', 0, 3_600_000);
    const sim = new VirtualPinpad({
      tcpPort: intOption(values.tcp, 'tcp', 0, 65535) ?? 0,
      ...(values.pty ? { ptyPath: values.pty } : {}),
      ...(typing !== undefined ? { typingMs: typing } : {}),
      ...(values.memory !== undefined ? { memoryPath: values.memory } : {}),
      profile: {
        classicOnly: values.classic === true,
        ...(values.serial ? { serialNumber: values.serial } : {}),
        ...(values.model ? { model: values.model } : {}),
        ...(values.timing ? { timing: values.timing as TimingName } : {}),
        ...(timingScale !== undefined ? { timingScale } : {}),
        ...(values.answers === '2.12' ? { answers: '2.12' as const, specVersion: '2.12' } : {}),
      },
      onEvent: (event, detail) => ctx.err(`${JSON.stringify({ event, ...detail })}\n`),
    });
    await sim.start();
    const control =
      values.control !== undefined
        ? await serveControl(sim, intOption(values.control, 'control', 0, 65535))
        : undefined;
    const controlPort = control?.port;
    ctx.out(
      `${JSON.stringify({ ready: true, tcp: sim.port, ...(values.pty ? { pty: values.pty } : {}), ...(controlPort !== undefined ? { control: controlPort } : {}) })}\n`,
    );
    await untilSignal();
    await control?.close();
    await sim.stop();
    return 0;
  },
};

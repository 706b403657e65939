import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { askHidden, type HiddenInput } from '../../../src/cli/void.js';
import type { CliContext } from '../../../src/cli/context.js';

/**
 * A terminal that records, in order, what was done to it and what was written beside it. The CI run on b93d991
 * failed because the prompt was written while the terminal still echoed: script(1) typed on seeing the prompt,
 * before echo went off, and the password showed (test/integration/void/cli-tty.test.ts).
 */
function recordingTerminal(): { input: HiddenInput & EventEmitter; ctx: CliContext; steps: string[] } {
  const steps: string[] = [];
  const emitter = new EventEmitter();
  const input = Object.assign(emitter, {
    isTTY: true,
    setRawMode: (mode: boolean) => steps.push(mode ? 'echo off' : 'echo on'),
    resume: () => steps.push('resume'),
    pause: () => steps.push('pause'),
  });
  const write = (text: string): void => {
    steps.push(`write ${JSON.stringify(text)}`);
  };
  const ctx: CliContext = { out: write, err: write, env: {} };
  return { input, ctx, steps };
}

describe('askHidden: the password is never echoed', () => {
  it('turns echo off before the prompt shows, and on again after the line', async () => {
    const { input, ctx, steps } = recordingTerminal();
    const answer = askHidden('supervisor password: ', ctx, input);
    input.emit('data', Buffer.from('S3cr\u007fret\r'));
    expect(await answer).toBe('S3cret');
    expect(steps).toEqual(['echo off', 'write "supervisor password: "', 'resume', 'echo on', 'pause', 'write "\\n"']);
  });

  it('Ctrl-C cancels with echo back on; no terminal is a usage error before anything is written', async () => {
    const { input, ctx, steps } = recordingTerminal();
    const answer = askHidden('p: ', ctx, input);
    input.emit('data', Buffer.from('ab\u0003'));
    await expect(answer).rejects.toMatchObject({ code: 'ENGINE_CANCELLED' });
    expect(steps.at(-3)).toBe('echo on');
    const none = recordingTerminal();
    Object.assign(none.input, { isTTY: false });
    await expect(askHidden('p: ', none.ctx, none.input)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(none.steps).toEqual([]);
  });
});

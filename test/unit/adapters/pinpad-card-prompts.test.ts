import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PinpadError } from '../../../drivers/pinpad/index.js';
import { asOmnipos } from '../../../src/adapters/pinpad-card-kit.js';
import { oneLine, PromptRelay, type PromptNotification } from '../../../src/adapters/pinpad-card-prompts.js';
import type { CardPrompt } from '../../../src/engine/ports.js';

/** A driver stand-in that emits notifications like the Pinpad does (EventEmitter `notification`). */
class Source extends EventEmitter {
  notify(text: string): void {
    this.emit('notification', { command: 'GOX', text } satisfies PromptNotification);
  }
}

describe('PromptRelay', () => {
  it('tells the prompts the adapter shows, one line each, the same one twice in a row once', () => {
    const seen: CardPrompt[] = [];
    const r = new PromptRelay(new Source(), (p) => seen.push(p));
    r.show('insert-card', 'APROXIME, INSIRA\nOU PASSE CARTAO');
    r.show('insert-card', 'APROXIME, INSIRA OU PASSE CARTAO');
    r.show('enter-pin', 'DIGITE A SENHA');
    r.show('insert-card', 'APROXIME, INSIRA OU PASSE CARTAO');
    r.show('message', '   ');
    expect(seen).toEqual([
      { prompt: 'insert-card', text: 'APROXIME, INSIRA OU PASSE CARTAO' },
      { prompt: 'enter-pin', text: 'DIGITE A SENHA' },
      { prompt: 'insert-card', text: 'APROXIME, INSIRA OU PASSE CARTAO' },
    ]);
  });

  it('relays the pinpad’s notifications only while the step runs, under the step’s code', async () => {
    const src = new Source();
    const seen: CardPrompt[] = [];
    const r = new PromptRelay(src, (p) => seen.push(p));
    src.notify('BEFORE');
    await r.during('enter-pin', async () => {
      src.notify('DIGITE A SENHA  ');
      await Promise.resolve();
    });
    src.notify('AFTER');
    expect(seen).toEqual([{ prompt: 'enter-pin', text: 'DIGITE A SENHA' }]);
    expect(src.listenerCount('notification')).toBe(0);
  });

  it('a listener that throws does not disturb the step; no listener, no subscription', async () => {
    const src = new Source();
    const r = new PromptRelay(src, () => {
      throw new Error('listener bug');
    });
    expect(() => r.show('processing', 'PROCESSANDO')).not.toThrow();
    await expect(r.during('enter-pin', () => (src.notify('X'), Promise.resolve(7)))).resolves.toBe(7);
    const quiet = new PromptRelay(src, undefined);
    await quiet.during('enter-pin', () => Promise.resolve(expect(src.listenerCount('notification')).toBe(0)));
  });

  it('property: oneLine never leaves a line break or a double space, nor spaces at the ends (1000 runs)', () => {
    const seed = Date.now();
    console.log(`fast-check seed ${seed}`);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('A', ' ', '\n', '\r', '\t', 'Ç', '1') }), (s) => {
        const l = oneLine(s);
        expect(l).not.toMatch(/[\r\n]|\s{2}|^\s|\s$/);
      }),
      { numRuns: 1000, seed },
    );
  });
});

describe('asOmnipos: the customer’s CANCEL key', () => {
  const cancel = new PinpadError('PINPAD_STATUS', 'GCX: ST_CANCEL', { command: 'GCX', status: 13 });
  it('ST_CANCEL nobody asked for is the customer cancelling', () => {
    expect(asOmnipos(cancel)).toMatchObject({ code: 'ENGINE_CANCELLED', context: { by: 'customer', status: 13 } });
  });
  it('ST_CANCEL after the terminal aborted the command stays a pinpad status; other statuses keep their code', () => {
    const ac = new AbortController();
    ac.abort();
    expect(asOmnipos(cancel, ac.signal)).toMatchObject({ code: 'PINPAD_STATUS', context: { status: 13 } });
    expect(asOmnipos(new PinpadError('PINPAD_STATUS', 'GCX: ST_TIMEOUT', { status: 12 }))).toMatchObject({
      code: 'PINPAD_STATUS',
      context: { status: 12 },
    });
    const other = new Error('x');
    expect(asOmnipos(other)).toBe(other);
  });
});

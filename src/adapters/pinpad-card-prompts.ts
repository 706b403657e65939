import type { CardPromptCode, PromptListener } from '../engine/index.js';

/** A pinpad notification (NTM) as the driver emits it. */
export interface PromptNotification {
  readonly command: string;
  readonly text: string;
}

/** What the relay needs of the driver: its `notification` events (NTM, §2.3.3), when it has them. */
export interface NotificationSource {
  on?(event: 'notification', listener: (n: PromptNotification) => void): unknown;
  off?(event: 'notification', listener: (n: PromptNotification) => void): unknown;
}

/**
 * The texts the terminal asks the pinpad to show (2 lines of 16, `\n` between them), by prompt.
 * Plain ASCII capitals, as the ABECS display and the acquirer's own terminals write them.
 */
export const PROMPT_TEXTS = {
  insertCardContactless: 'APROXIME, INSIRA\nOU PASSE CARTAO',
  insertCard: 'INSIRA OU PASSE\nO CARTAO',
  swipeCard: 'PASSE O CARTAO',
  insertChip: 'INSIRA O CARTAO',
  seePhone: 'SIGA INSTRUCOES\nNO TELEFONE',
  oneCard: 'APRESENTE APENAS\nUM CARTAO',
  enterPin: 'DIGITE A SENHA',
  chooseProduct: 'ESCOLHA O PRODUTO',
  processing: 'PROCESSANDO',
} as const;

/** A display text as one line (the event's `text`): lines joined by a space, runs of spaces folded. */
export function oneLine(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Tells a sale's listener what the pinpad shows: the prompts the adapter puts up itself, and the
 * pinpad's own notifications while a blocking command runs (GOX's PIN screen, RMC's "remove the
 * card"), each under the code of that step. The same prompt twice in a row is told once; a
 * failing listener never disturbs the card commands.
 */
export class PromptRelay {
  #last: string | undefined;

  constructor(
    private readonly source: NotificationSource,
    private readonly listener: PromptListener | undefined,
  ) {}

  show(prompt: CardPromptCode, text: string): void {
    if (!this.listener) return;
    const line = oneLine(text);
    const key = `${prompt}\n${line}`;
    if (key === this.#last || line === '') return;
    this.#last = key;
    try {
      this.listener({ prompt, text: line });
    } catch {
      // the listener's problem, not the sale's
    }
  }

  /** Runs `fn` with the pinpad's notifications told as `prompt`. */
  async during<T>(prompt: CardPromptCode, fn: () => Promise<T>): Promise<T> {
    if (!this.listener || !this.source.on) return fn();
    const relay = (n: PromptNotification): void => this.show(prompt, n.text);
    this.source.on('notification', relay);
    try {
      return await fn();
    } finally {
      this.source.off?.('notification', relay);
    }
  }
}

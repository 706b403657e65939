import type { Logger } from '../core/log/index.js';
import type { CardPort, PromptListener } from './ports.js';

/** The card's own decision after FCX, as `CardPort.finishChip` answers it. */
type ChipEnd = Awaited<ReturnType<CardPort['finishChip']>>;

/**
 * The end of a chip card's session, alike for the card sale and the void: FCX with the host's
 * decision (a throw is the card's `failed`), then the closing message made from the card's answer
 * (RMC while the chip is in; a failure there is logged and the answer stands). Never throws.
 */
export async function finishChipSession(
  card: Pick<CardPort, 'finishChip' | 'end'>,
  chip: { decision: Parameters<CardPort['finishChip']>[0]; host: Parameters<CardPort['finishChip']>[1] },
  message: (card: ChipEnd['card']) => string,
  log: Pick<Logger, 'warn'>,
  id: number,
  onPrompt?: PromptListener,
): Promise<ChipEnd> {
  let result: ChipEnd;
  try {
    result = await card.finishChip(chip.decision, chip.host);
  } catch (e) {
    result = { card: 'failed', reason: (e as Error).message };
  }
  const text = message(result.card);
  await (onPrompt ? card.end(text, onPrompt) : card.end(text)).catch((e: unknown) =>
    log.warn({ id, err: e }, 'pinpad end failed'),
  );
  return result;
}

/** The machines' input once the chip has finished (the sale's and the void's spell it alike). */
export function chipFinished(result: ChipEnd): {
  kind: 'chip-finished';
  card: ChipEnd['card'];
  emv?: Record<string, string>;
  reason?: string;
} {
  return {
    kind: 'chip-finished',
    card: result.card,
    ...(result.emv ? { emv: result.emv } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
  };
}

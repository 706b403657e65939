import type { CardPort, EncryptedCard } from '../../src/engine/ports.js';
import type { CardSummary } from '../../src/engine/sale/types.js';
import type { Stage } from './card-host.js';

/**
 * The explorer's pinpad: how the card is read, and what the chip makes of the host's answer (FCX).
 * Written from the ABECS specification's flow (GCR → GOC → FCX → RMC: a chip card decides again after
 * the host answered; it may decline what the host approved, or the session may fail), never from the
 * sim or the drivers. Card data are test values, never a real card.
 */
export const CARD_READS = [
  'stripe',
  'chip (FCX after the answer)',
  'contactless chip (FCX after the answer)',
  'stripe, fallback after a chip failure',
] as const;

/** What the chip does with the host's approval (FCX): approve, decline, or the session fails. */
export const CHIP_ENDS = [
  'the card approves',
  'the card declines (2nd GENERATE AC: AAC)',
  'the card session fails (card removed)',
  'SIGKILL during FCX',
] as const;

const SUMMARY: Record<(typeof CARD_READS)[number], Pick<CardSummary, 'inputMode' | 'chip' | 'isFallback'>> = {
  stripe: { inputMode: 'MagStripe', chip: false, isFallback: false },
  'chip (FCX after the answer)': { inputMode: 'Emv', chip: true, isFallback: false },
  'contactless chip (FCX after the answer)': { inputMode: 'ContactlessEmv', chip: true, isFallback: false },
  'stripe, fallback after a chip failure': { inputMode: 'MagStripe', chip: false, isFallback: true },
};

/** 9F02 amount, 9F26 cryptogram, 9F27 ARQC, 9F36 ATC, 95 TVR: request tags of a chip read (test values). */
const EMV_REQUEST = '9F02060000000010009F2608A1B2C3D4E5F607189F2701809F360200419505 0000008000'.replace(/\s/g, '');

/** The card port of one timeline: each read and each FCX is a choice point. */
export function explorerCard(stage: Stage): CardPort {
  return {
    readCard: () => {
      const how = stage.choose('the card is read', CARD_READS);
      if (how !== 'stripe') stage.say(`card read: ${how}`);
      const s = SUMMARY[how];
      const card: EncryptedCard = {
        kind: 'track2',
        data: '00',
        ksn: 'FFFF9876543210E00001',
        iv: '0000000000000000',
        isTlv: false,
        ...(s.chip ? { emvData: EMV_REQUEST } : {}),
      };
      return Promise.resolve({
        summary: {
          maskedPan: '476173******0010',
          ...s,
          authenticationMethod: 'NoPassword',
          productId: 1,
          brandId: 1,
          issuerId: 1,
          expiry: '1230',
          ...(s.chip ? { panSequenceNumber: '01' } : {}),
        },
        card,
      });
    },
    async finishChip(decision) {
      // The card's own decision matters when the host approved: otherwise the card ends declined.
      if (decision !== 'approved') return { card: 'declined' as const };
      const end = stage.choose('the chip finishes (FCX)', CHIP_ENDS);
      stage.say(`FCX → ${end}`);
      switch (end) {
        case 'the card approves':
          return { card: 'approved' as const, emv: { '9F27': '40', '95': '0000008000' } };
        case 'the card declines (2nd GENERATE AC: AAC)':
          return { card: 'declined' as const, emv: { '9F27': '00', '95': '0000008000' } };
        case 'the card session fails (card removed)':
          return { card: 'failed' as const, reason: 'card removed during FCX' };
        case 'SIGKILL during FCX':
          return stage.kill();
      }
    },
    end: () => Promise.resolve(),
  };
}

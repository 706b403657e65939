import { describe, expect, it } from 'vitest';
import {
  isSharedKind,
  SHARED_EFFECT_KINDS,
  SPEAKS_ALL,
  SPEAKS_CORE,
  type MachineVocabulary,
} from '../../../src/engine/machine-vocabulary.js';
import type { PixEffect, PixInput } from '../../../src/engine/pix/types.js';
import type { PixEvent } from '../../../src/engine/pix/engine.js';
import type { QrEffect, QrInput } from '../../../src/engine/qr/types.js';
import type { QrEvent } from '../../../src/engine/qr/engine.js';
import type { SaleEffect, SaleInput } from '../../../src/engine/sale/types.js';
import type { SaleEvent } from '../../../src/engine/sale/engine.js';
import type { VoidEffect, VoidInput } from '../../../src/engine/void/types.js';
import type { VoidEvent } from '../../../src/engine/void/engine.js';

/**
 * The machines' shared vocabulary is checked by the compiler (this file is type-checked with the
 * rest): each machine's unions hold the shared inputs, effects and events, and a machine that
 * spelled one differently would not compile. The owner used to cast them (`as unknown as`).
 */
const sale: MachineVocabulary<SaleInput, SaleEffect, SaleEvent> = SPEAKS_ALL;
const qr: MachineVocabulary<QrInput, QrEffect, QrEvent> = SPEAKS_ALL;
const pix: MachineVocabulary<PixInput, PixEffect, PixEvent> = SPEAKS_ALL;
const voids: MachineVocabulary<VoidInput, VoidEffect, VoidEvent> = SPEAKS_CORE;

type Drifted = { kind: 'delivered'; outcome: string } | { kind: 'alarm'; text: string };
// @ts-expect-error a machine whose `delivered` input or `alarm` effect drifted from the shared shape does not compile
const drifted: MachineVocabulary<Drifted, Drifted, SaleEvent> = SPEAKS_CORE;
// @ts-expect-error the void has no receipt step of the owner's: it cannot claim the whole vocabulary
const voidAll: MachineVocabulary<VoidInput, VoidEffect, VoidEvent> & { receipt: object } = SPEAKS_ALL;

describe('the machines shared vocabulary', () => {
  it('card, wallet QR and Pix speak the receipt step; the void speaks the core only', () => {
    expect([sale.receipt, qr.receipt, pix.receipt].every((r) => r !== undefined)).toBe(true);
    expect(voids.receipt).toBeUndefined();
    expect([drifted, voidAll]).toHaveLength(2);
  });

  it('the shared effects are told apart by kind alone', () => {
    expect([...SHARED_EFFECT_KINDS].sort()).toEqual([
      'alarm',
      'ask.receipt',
      'print.receipt',
      'receipt.start',
      'schedule.deadline',
    ]);
    expect(isSharedKind({ kind: 'alarm', code: 'X', message: 'y' })).toBe(true);
    expect(isSharedKind({ kind: 'outbox.confirm' })).toBe(false);
  });
});

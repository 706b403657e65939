import { describe, expect, it } from 'vitest';
import {
  AWAITING_HOST_CLOSE,
  awaitingHostCloseStates,
  awaitsHostClose,
} from '../../../src/engine/awaiting-host-close.js';
import { QR_FINAL, QR_STATES } from '../../../src/engine/qr/types.js';
import { FINAL_VOID_STATES, VOID_HOLDS_AMOUNT, VOID_STATES, voidStatus } from '../../../src/engine/void/types.js';
import { planVoidRecovery } from '../../../src/engine/void/recovery.js';
import { Journal } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

const tempStore = useTempStores();

/**
 * "Awaiting the host's close" is defined once, per kind, and read by health (src/main/start-doors.ts)
 * and the day report (src/operations/day/lines.ts): a wallet QR sale's code that ended unpaid and a
 * wallet QR void's cancellation code that ended not applied. Health counted the QR rows only.
 */
describe("awaiting the host's close: one definition for every kind", () => {
  it('a wallet QR void whose cancellation code ended (expiring) awaits the close, as a QR sale whose code ended does', () => {
    expect(VOID_STATES.filter((s) => awaitsHostClose({ kind: 'void', state: s }))).toEqual(['expiring']);
    expect(QR_STATES.filter((s) => awaitsHostClose({ kind: 'qr', state: s }))).toEqual(['cancelling', 'expiring']);
    // Another kind in a state of the same name is not a code's watch.
    for (const kind of ['sale', 'pix', 'cnp']) expect(awaitsHostClose({ kind, state: 'expiring' })).toBe(false);
  });

  it('each such state is unfinished, its watch in the outbox; a void in it holds its amount and reads pending', () => {
    for (const s of AWAITING_HOST_CLOSE.qr) expect(QR_FINAL.has(s as never)).toBe(false);
    for (const s of AWAITING_HOST_CLOSE.void) {
      const state = s as (typeof VOID_STATES)[number];
      expect(FINAL_VOID_STATES.has(state)).toBe(false);
      expect(VOID_HOLDS_AMOUNT.has(state)).toBe(true);
      expect(voidStatus(state)).toBe('pending');
      const plan = planVoidRecovery({
        name: state,
        data: {
          merchantOrderId: 'v',
          merchantVoidId: 'v',
          amount: 1,
          authorizedBy: 'supervisor-token',
          sale: { kind: 'wallet-qr', id: 1, merchantOrderId: 's', paymentId: 'p', amount: 1, method: 'credit' },
        },
      });
      expect(plan).toEqual({ kind: 'ensure', effects: [{ kind: 'outbox.code-watch' }] });
    }
  });

  it("health's count (the journal's rows in those states, of their kind) counts the voids with the QR sales", () => {
    const db = tempStore();
    const journal = new Journal(db);
    const at = new Date('2026-11-28T17:00:00.000Z');
    const row = (kind: 'qr' | 'void' | 'sale', state: string, n: number) =>
      journal.open({ kind, merchantOrderId: `26333000100000${n}`, state, amount: 100, input: 'test', at });
    row('qr', 'expiring', 1);
    row('qr', 'cancelling', 2);
    row('void', 'expiring', 3);
    row('void', 'confirmed', 4);
    row('qr', 'expired', 5);
    row('sale', 'confirmed', 6);
    const count = journal.inStates(awaitingHostCloseStates()).filter(awaitsHostClose).length;
    expect(count).toBe(3);
    db.close();
  });
});

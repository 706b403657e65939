import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTerminalDatabase, writeDayFile } from '../../../src/store/index.js';
import { movingPruned } from '../../year/at-rest.js';

// The year run's retention check can fail: an archive holding a payment that may still move money.
const payment = (
  kind: string,
  state: string,
  merchantOrderId: string,
  doneAt: string | null = '2027-01-04T15:00:00Z',
) => ({
  entry: {
    id: Number(merchantOrderId.slice(-3)),
    kind,
    merchantOrderId,
    state,
    amount: 1010,
    data: {},
    createdAt: '',
    updatedAt: '',
  },
  transitions: [],
  outbox: [
    {
      operation: 'sale.confirm',
      idempotencyKey: `c:${merchantOrderId}`,
      attempts: 1,
      doneAt,
      deadLetterReason: null,
      createdAt: '',
    },
  ],
});

describe("the year run's check that retention pruned nothing that may move money", () => {
  it('names an archived sale still confirming, one with its confirmation not delivered, and passes one at rest', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-at-rest-'));
    openTerminalDatabase(dir).close();
    const archive = path.join(dir, 'archive');
    writeDayFile(archive, '2027-01-04', {
      format: 'omnipos-day/1',
      date: '2027-01-04',
      archivedAt: '2027-01-20T12:00:00Z',
      close: {},
      payments: [
        payment('sale', 'confirmed', '270040001000001'),
        payment('sale', 'confirming', '270040001000002'),
        payment('qr', 'confirmed', '270040001000003', null),
      ],
    });
    expect(movingPruned(archive, path.join(dir, 'omnipos.db'))).toEqual([
      'retention: sale 270040001000002 archived in confirming',
      'retention: qr 270040001000003 archived with sale.confirm not done',
    ]);
  });
});

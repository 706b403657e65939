import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

/**
 * Defect 12 of the contract: `Payment.receipt` is typed in the document (not `{"type": "object"}`),
 * and the day report's brand, product, method and outcome vocabulary is documented and typed (a card's
 * brand is the acquirer's `BrandId`, not the fiscal `tBand`). The contract hook then holds a real
 * daemon's receipt and report to it.
 */

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
const doc = JSON.parse(readFileSync('src/api/openapi.json', 'utf8')) as {
  components: { schemas: Record<string, Schema> };
};
const schemas = doc.components.schemas;

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-vocabulary-' });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

describe('the receipt and the day report typed (defect 12)', () => {
  it("the document types Payment.receipt's rows and messages", () => {
    const receipt = schemas.Payment!.properties!.receipt!;
    expect(receipt.required).toEqual(['fields', 'messages']);
    expect(receipt.additionalProperties).toBe(false);
    const row = (receipt.properties!.fields as { items: Schema }).items;
    expect(row.required).toEqual(['field', 'label', 'content']);
  });

  it("the document names the day report's vocabulary: brand a BrandId, product a ProductId or modality, outcome and method enums", () => {
    const line = (schemas.DayReport!.properties!.lines as { items: Schema }).items.properties ?? {};
    // A card-not-present sale's brand is the scheme as its host names it (letters).
    expect(line.brand!.pattern).toBe('^([0-9]+|wallet|pix|unknown|[A-Za-z]{2,20})$');
    expect(String(line.brand!.description)).toMatch(/BrandId/);
    expect(line.product!.pattern).toBe('^([0-9]+|credit|debit|pix|unknown)$');
    expect(line.outcome!.enum).toContain('refused');
    expect(line.method!.enum).toEqual(['credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'unknown']);
  });

  it("a daemon's sale receipt and day report fit them (the contract hook checks each answer)", async () => {
    const c = await t.call('POST', '/v1/payments', { amount: 4210, method: 'credit' });
    let p = c.body;
    for (let i = 0; i < 800 && p.status !== 'confirmed'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      p = (await t.call('GET', `/v1/payments/${c.body.id as number}`)).body;
    }
    expect(p.status).toBe('confirmed');
    const receipt = p.receipt as { fields: { field: string; content: unknown }[] };
    expect(receipt.fields.length).toBeGreaterThan(0);
    for (const f of receipt.fields) expect(typeof f.content).toBe('string');
    const report = (await t.call('GET', '/v1/day/report')).body as {
      lines: { brand: string; product: string; method: string }[];
    };
    const card = p.card as { brandId: number; productId: number };
    expect(report.lines).toContainEqual(
      expect.objectContaining({ brand: String(card.brandId), product: String(card.productId), method: 'credit' }),
    );
  }, 60_000);
});

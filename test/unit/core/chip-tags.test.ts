import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CHIP_TAGS_FIRST,
  CHIP_TAGS_OPAQUE,
  CHIP_TAGS_SECOND,
  CHIP_UNDO_REQUEST_TAGS,
} from '../../../src/core/chip-tags.js';
import { isOpaqueEmvField } from '../../../src/core/log/scrub.js';
import { UNDO_REQUEST_TAGS } from '../../../src/engine/sale/chip-tags.js';
import { sandboxTables } from '../../../tables/initialization/sandbox-tables.js';

const split = (hex: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i < hex.length;) {
    const long = (parseInt(hex.slice(i, i + 2), 16) & 0x1f) === 0x1f;
    out.push(hex.slice(i, i + (long ? 4 : 2)));
    i += long ? 4 : 2;
  }
  return out;
};

describe('the chip tag lists, once (src/core/chip-tags.ts)', () => {
  it('hold no card data: PAN 5A, tracks 57/56/9F6B, name 5F20, expiry 5F24, discretionary 9F1F/9F20', () => {
    for (const tag of ['5A', '57', '56', '9F6B', '5F20', '5F24', '9F1F', '9F20'])
      expect(CHIP_TAGS_OPAQUE.has(tag), tag).toBe(false);
  });

  it('the undo set is the first list with 4F and 9B; the opaque set is every list with the issuer tags 71, 72, 91', () => {
    expect([...CHIP_UNDO_REQUEST_TAGS].sort()).toEqual(['4F', ...CHIP_TAGS_FIRST, '9B'].sort());
    expect([...CHIP_TAGS_OPAQUE].sort()).toEqual(
      [...new Set([...CHIP_UNDO_REQUEST_TAGS, ...CHIP_TAGS_SECOND, '71', '72', '91'])].sort(),
    );
  });

  it("cover the sandbox's Emv tables: every TagsFirst and TagsSecond tag is asked for", () => {
    const emv = (sandboxTables() as { Emv?: { TagsFirst?: string; TagsSecond?: string }[] }).Emv ?? [];
    expect(emv.length).toBeGreaterThan(0);
    for (const row of emv) {
      for (const t of split(row.TagsFirst ?? '')) expect(CHIP_TAGS_FIRST, `TagsFirst ${t}`).toContain(t);
      for (const t of split(row.TagsSecond ?? '')) expect(CHIP_TAGS_SECOND, `TagsSecond ${t}`).toContain(t);
    }
  });

  it('the sale engine and the log scrubber use this list, and no copy of it is left in the engine, the card adapter or the scrubber', () => {
    expect(UNDO_REQUEST_TAGS).toBe(CHIP_UNDO_REQUEST_TAGS);
    for (const tag of CHIP_TAGS_OPAQUE) expect(isOpaqueEmvField(tag, '00'), tag).toBe(true);
    expect(isOpaqueEmvField('5A', '00')).toBe(false);
    for (const file of [
      'src/engine/sale/chip-tags.ts',
      'src/adapters/pinpad-card.ts',
      'src/adapters/pinpad-card-finish.ts',
      'src/core/log/scrub.ts',
    ]) {
      const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
      // the cryptogram's tag, in every list: a literal of it means a list of its own
      expect(text.includes("'9F26'"), file).toBe(false);
    }
  });
});

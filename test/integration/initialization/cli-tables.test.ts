import { describe, expect, it } from 'vitest';
import { InitializationStore, parseInitialization } from '../../../src/initialization/index.js';
import { openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { sandboxAnswer } from '../../helpers/initialization-tables.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';

const tempDir = useTempDirs();

describe('omnipos tables', () => {
  it('show: a summary with the pinpad table version, and one table as JSON', async () => {
    const s = await cli(['tables', 'show', '--sandbox']);
    expect(s.code).toBe(0);
    expect(s.out).toContain('InitializationVersion 1763769600001 (pinpad table version 3769600001)');
    const bins = await cli(['tables', 'show', 'bins', '--sandbox', '--json']);
    const rows = JSON.parse(bins.out) as { InitialBin: string; RequiresPassword: boolean }[];
    expect(rows.length).toBeGreaterThan(40);
    expect(rows[0]).toHaveProperty('RequiresPassword');
    const keys = JSON.parse((await cli(['tables', 'show', 'PublicKeys', '--sandbox', '--json'])).out) as {
      kind: string;
    }[];
    expect(keys.some((k) => k.kind === 'revoked')).toBe(true);
    expect((await cli(['tables', 'show', 'Nope', '--sandbox'])).code).toBe(2);
  });

  it('bin --json: the products, whether the customer chooses, issuer, flags and rules for those digits', async () => {
    const r = await cli(['tables', 'bin', '47617300', '--sandbox', '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.out) as {
      ok: boolean;
      mustChoose: boolean;
      products: {
        productId: number;
        issuer: { issuerId: number };
        binFlags: Record<string, boolean>;
        byEntry: Record<string, { password: string }>;
      }[];
    };
    expect(d.mustChoose).toBe(true);
    expect(d.products.map((p) => p.productId)).toEqual([1, 2]);
    expect(d.products[0]!.issuer.issuerId).toBe(1010);
    expect(d.products[0]!.binFlags.RequiresPasswordExceptForEMVCard).toBe(true);
    expect(d.products[0]!.byEntry.emv!.password).toBe('card');
    const chip = JSON.parse(
      (await cli(['tables', 'bin', '47617300', '--aid', 'A0000000032010', '--sandbox', '--json'])).out,
    ) as { products: { productId: number }[] };
    expect(chip.products.map((p) => p.productId)).toEqual([2]);
    const refused = await cli(['tables', 'bin', '99999999', '--sandbox', '--json']);
    expect(refused.code).toBe(4);
    expect(JSON.parse(refused.out)).toMatchObject({ ok: false, reason: 'unknown-bin' });
    expect((await cli(['tables', 'bin', '4761x', '--sandbox'])).code).toBe(2);
  });

  it("reads the terminal's database: refuses before initialization, shows the version in force after", async () => {
    const stateDir = tempDir();
    const env = { OMNIPOS_STATE_DIR: stateDir };
    const before = await cli(['tables', 'show'], env);
    expect(before.code).toBe(4);
    expect(before.err).toContain('run omnipos init');
    const db = openTerminalDatabase(stateDir);
    new InitializationStore(db, { now: () => new Date() }).install(
      parseInitialization({ ...sandboxAnswer(), InitializationVersion: 1763769600077 }),
    );
    db.close();
    const after = await cli(['tables', 'show'], env);
    expect(after.code).toBe(0);
    expect(after.out).toContain('InitializationVersion 1763769600077');
    expect((await cli(['tables', 'bin', '54133300', '--json'], env)).code).toBe(0);
  });
});

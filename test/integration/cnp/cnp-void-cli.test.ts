import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { CNP_BACKENDS, cliContext, typeCard, type CnpBackend } from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { tempDirForFile, useTempDirs } from '../../helpers/temp-dir.js';

/**
 * `omnipos cnp void`, the technician's way to undo a sale without the card present, end to end on
 * the embedded default with each backend, through `runCli` (the command table, the exit codes) and
 * the running daemon's `POST /v1/card-not-present/sales/{id}/void`: a phone order voided in part then
 * whole, a pre-authorization voided whole (a part of one refused by the engine, as the hosts refuse
 * it), the supervisor's password asked as `omnipos void` asks it (a wrong one refused), an unknown id.
 */
const tempDir = useTempDirs();
const pwDir = tempDirForFile('omnipos-pw-');

function voids(b: CnpBackend) {
  describe(`omnipos cnp void on ${b.name}`, () => {
    const api = documentedApi();
    let t: TestDaemon;
    let pw: string;
    beforeAll(async () => {
      t = await api.start({ env: b.env(tempDir()) });
      pw = path.join(pwDir, `pw-${b.name}`);
      writeFileSync(pw, 'sup97531\n');
      expect(await cli(['supervisor', 'password', '--from-file', pw])).toMatchObject({ code: 0 });
    }, 120_000);
    afterAll(() => api.stop());

    async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, cliContext(t, out, err));
      return { code, out: out.join(''), err: err.join('') };
    }

    /** A sale typed on the virtual pinpad through `omnipos cnp sale`; its id. */
    async function sale(preauth: boolean): Promise<string> {
      typeCard(t, b.approved);
      const brand = typeof b.body.brand === 'string' ? ['--brand', b.body.brand] : [];
      const r = await cli([
        'cnp',
        'sale',
        '--amount',
        String(b.approvedAmount),
        '--holder',
        'ANA SILVA',
        ...brand,
        ...(preauth ? ['--preauth'] : []),
      ]);
      expect(r.code, r.err).toBe(0);
      return String((JSON.parse(r.out) as { id: number }).id);
    }

    const voidOf = (id: string, ...more: string[]) =>
      cli(['cnp', 'void', id, '--supervisor-password-file', pw, ...more]);
    const row = (id: string) => t.journal.get(Number(id))!;

    it('a phone order voided in part (the rest stays captured), then whole', async () => {
      const id = await sale(false);
      const part = Math.floor(b.approvedAmount / 4);
      const first = await voidOf(id, '--amount', String(part));
      expect(first.code, first.err).toBe(0);
      expect(JSON.parse(first.out)).toMatchObject({ id: Number(id) });
      expect(row(id)).toMatchObject({ state: 'captured', data: { voidedAmount: part } });
      const rest = await voidOf(id);
      expect(rest.code, rest.err).toBe(0);
      expect(row(id).state).toBe('voided');
    });

    it('a pre-authorization voided whole; a part of it refused (exit 4), nothing sent', async () => {
      const id = await sale(true);
      expect(row(id).state).toBe('authorized');
      const part = await voidOf(id, '--amount', '100');
      expect(part.code, part.err).toBe(4);
      expect(part.err).toMatch(/NOT_ALLOWED|part/i);
      expect(row(id).state).toBe('authorized');
      const whole = await voidOf(id);
      expect(whole.code, whole.err).toBe(0);
      expect(row(id).state).toBe('voided');
    });

    it("refused without the supervisor's password (exit 4), and for no such sale (exit 2)", async () => {
      const id = await sale(false);
      const wrong = path.join(tempDir(), 'wrong');
      writeFileSync(wrong, 'not-the-password\n');
      const refused = await cli(['cnp', 'void', id, '--supervisor-password-file', wrong]);
      expect(refused.code).toBe(4);
      expect(refused.err).toMatch(/SUPERVISOR_REQUIRED|supervisor/i);
      expect(row(id).state).toBe('captured');
      const none = await voidOf('999999');
      expect(none.code, none.err).toBe(2);
      expect((await cli(['cnp', 'void', id, '--amount', 'abc', '--supervisor-password-file', pw])).code).toBe(2);
    });
  });
}

for (const b of CNP_BACKENDS) voids(b);

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cnpSale } from '../../../src/cli/cnp.js';
import {
  cnpCapture,
  cnpCardList,
  cnpCardRemove,
  cnpCardSave,
  cnpRecurrenceCreate,
  cnpRecurrenceShow,
} from '../../../src/cli/cnp-cards.js';
import { supervisorPassword } from '../../../src/cli/void.js';
import { CNP_BACKENDS, cliContext, secretsOf, typeCard, type CnpBackend } from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * The technician's commands for sales without the card, end to end on the embedded default with each
 * backend, each through the running daemon's local API: a phone order that saves its card, a card
 * saved alone, a pre-authorization by the saved card captured in part, the card listed and removed
 * with the supervisor's password, a recurrence created and read (the e-commerce API; refused by name
 * on the webservice 1.5). Nothing they print holds the typed card or a token.
 */
const tempDir = useTempDirs();

function commands(b: CnpBackend) {
  describe(`omnipos cnp on ${b.name}`, () => {
    const api = documentedApi();
    const printed: string[] = [];
    const tokens: string[] = [];
    let t: TestDaemon;
    beforeAll(async () => {
      t = await api.start({ env: b.env(tempDir()) });
    }, 120_000);
    afterAll(() => api.stop());

    /** Runs a command; its exit code and what it printed (stdout parsed as JSON when it is). */
    async function run(cmd: { run: typeof cnpSale.run }, args: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await cmd.run(args, cliContext(t, out, err));
      printed.push(out.join(''), err.join(''));
      const text = out.join('');
      return {
        code,
        body: (text.startsWith('{') ? JSON.parse(text) : {}) as Record<string, unknown>,
        err: err.join(''),
      };
    }
    const brand = b.name === 'webservice15' ? ['--brand', 'Visa'] : [];
    const amount = String(b.approvedAmount);
    let cardId: number;

    it('cnp sale --save-card: a phone order typed on the pinpad, its card kept (savedCardId)', async () => {
      typeCard(t, b.approved);
      const r = await run(cnpSale, ['--amount', amount, '--holder', 'ANA SILVA', ...brand, '--save-card']);
      expect(r.code, r.err).toBe(0);
      expect(r.body).toMatchObject({ state: 'captured', saveCard: true, savedCardId: expect.any(Number) });
    });

    it('cnp card save, then cnp card list: masked number, brand, backend', async () => {
      typeCard(t, b.approved);
      const r = await run(cnpCardSave, ['--holder', 'ANA SILVA', ...brand]);
      expect(r.code, r.err).toBe(0);
      expect(r.body).toMatchObject({ backend: b.name, maskedPan: expect.stringMatching(b.masked) });
      cardId = r.body.id as number;
      const list = await run(cnpCardList, []);
      expect(list.code).toBe(0);
      expect(list.body.cards).toContainEqual(expect.objectContaining({ id: cardId, backend: b.name }));
    });

    it('cnp sale --saved-card: a sale by the saved card, nothing typed', async () => {
      tokens.push(t.savedCards.reveal(cardId)!.token);
      const r = await run(cnpSale, ['--amount', amount, '--saved-card', String(cardId)]);
      expect(r.code, r.err).toBe(0);
      expect(r.body).toMatchObject({ state: 'captured', savedCardId: cardId, card: { brand: expect.any(String) } });
    });

    it('cnp sale --saved-card --preauth, then cnp capture --amount: captured in part', async () => {
      const pre = await run(cnpSale, ['--amount', amount, '--saved-card', String(cardId), '--preauth']);
      expect(pre.code, pre.err).toBe(0);
      expect(pre.body).toMatchObject({ state: 'authorized', savedCardId: cardId });
      const part = String(Math.round(b.approvedAmount * 0.6));
      const cap = await run(cnpCapture, [String(pre.body.id), '--amount', part]);
      expect(cap.code, cap.err).toBe(0);
      expect(cap.body).toMatchObject({ state: 'captured', capturedAmount: Number(part) });
      await expect(run(cnpCapture, [String(pre.body.id)])).rejects.toMatchObject({ code: 'NOT_ALLOWED' });
      await expect(run(cnpSale, ['--amount', amount, '--saved-card', '1', '--holder', 'ANA'])).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });

    it("cnp card remove with the supervisor's password: a wrong one refused, the right one removes it", async () => {
      const dir = tempDir();
      const right = path.join(dir, 'pw');
      const wrong = path.join(dir, 'wrong');
      writeFileSync(right, 'cartao86420\n');
      writeFileSync(wrong, 'nope\n');
      expect((await run(supervisorPassword, ['--from-file', right])).code).toBe(0);
      await expect(run(cnpCardRemove, [String(cardId), '--supervisor-password-file', wrong])).rejects.toMatchObject({
        code: 'SUPERVISOR_REQUIRED',
      });
      const r = await run(cnpCardRemove, [String(cardId), '--supervisor-password-file', right]);
      expect(r).toMatchObject({ code: 0, body: { id: cardId } });
      await expect(run(cnpCardRemove, [String(cardId), '--supervisor-password-file', right])).rejects.toMatchObject({
        code: 'ENGINE_NOT_FOUND',
      });
    });

    if (b.name === 'ecommerce')
      it('cnp recurrence create, then cnp recurrence show: active at the host', async () => {
        typeCard(t, b.approved);
        const r = await run(cnpRecurrenceCreate, [
          '--amount',
          '8990',
          '--interval',
          'monthly',
          '--holder',
          'ANA SILVA',
        ]);
        expect(r.code, r.err).toBe(0);
        expect(r.body).toMatchObject({ state: 'captured', recurrence: { interval: 'monthly' } });
        const shown = await run(cnpRecurrenceShow, [String(r.body.id)]);
        expect(shown).toMatchObject({ code: 0, body: { id: r.body.id, status: 'active' } });
      });
    else
      it('cnp recurrence create is refused by name: the webservice 1.5 schedules none', async () => {
        await expect(
          run(cnpRecurrenceCreate, ['--amount', '1000', '--interval', 'monthly', '--holder', 'ANA', '--brand', 'Visa']),
        ).rejects.toMatchObject({ code: 'CNP_NOT_OFFERED' });
        await expect(run(cnpRecurrenceShow, ['1'])).rejects.toMatchObject({ code: 'CNP_NOT_OFFERED' });
      });

    it('nothing printed, and nothing at rest, holds the typed card or the token', async () => {
      await t.stopDaemon().catch(() => undefined);
      const secrets = [...secretsOf(b.approved), ...tokens];
      expect(tokens).toHaveLength(1);
      for (const s of secrets) expect(printed.join('\n')).not.toContain(s);
      expect(scanForCardData(t.stateDir, secrets, ['sandbox'])).toEqual([]);
    });
  });
}

for (const b of CNP_BACKENDS) commands(b);

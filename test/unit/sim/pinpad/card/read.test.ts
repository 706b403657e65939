/**
 * The card prompt's notification (§2.3.3: NTM_MSG "formatada para poder ser visualizada corretamente em 2
 * linhas de 16 caracteres") made from the terminal's whole SPE_DSPMSG (S..128 "com caracteres de quebras
 * de linha (0Dh)", §3.1.3.1): its line breaks kept, its words never cut at the 32nd character.
 */
import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeFrame } from '../../../../../drivers/pinpad/index.js';
import { SimEngine } from '../../../../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../../../../src/sim/pinpad/handlers/index.js';
import { profile } from '../../../../../src/sim/pinpad/profile.js';
import { cardSim } from '../../../../../src/sim/pinpad/card/index.js';

const par = (id: number, v: string): Buffer => {
  const b = Buffer.from(v, 'latin1');
  return Buffer.concat([Buffer.of(id >> 8, id & 0xff, b.length >> 8, b.length & 0xff), b]);
};
const gcx = (message: string): Uint8Array => {
  const b = Buffer.concat([par(0x15, '251125'), par(0x16, '120000'), par(0x1b, message)]);
  return Uint8Array.from(Buffer.concat([Buffer.from(`GCX${String(b.length).padStart(3, '0')}`), b]));
};

/** The NTM_MSG of the first notification of a GCX showing `message` (the customer presents no card). */
async function notification(message: string): Promise<string> {
  const frames: string[] = [];
  const decoder = new FrameDecoder();
  const engine = new SimEngine({
    profile: profile(),
    handlers: handlersFor(false),
    output: (b) => {
      for (const e of decoder.push(b)) if (e.type === 'frame') frames.push(Buffer.from(e.data).toString('latin1'));
    },
    typingMs: null,
  });
  cardSim(engine.state).deck.choose({ action: 'nothing' });
  engine.receive(encodeFrame(gcx(message)));
  // generous: this machine is loaded (never a bound on how long things take)
  for (const end = Date.now() + 15_000; Date.now() < end && !frames.some((f) => f.startsWith('NTM'));)
    await new Promise((r) => setTimeout(r, 10));
  engine.receive(Uint8Array.of(0x18)); // CAN: the read ends
  const ntm = frames.find((f) => f.startsWith('NTM'));
  if (!ntm) throw new Error('no notification');
  expect(ntm.slice(6, 9)).toBe(String(ntm.length - 9).padStart(3, '0'));
  return ntm.slice(9);
}

const two = (a: string, b: string): string => `${a.padEnd(16)}${b}`;

describe("the card prompt's notification is laid out from the whole message (§2.3.3, §3.1.3.1)", () => {
  it('a word across the 32nd character is not cut: it is left out whole', async () => {
    expect(await notification('INSIRA OU PASSE O CARTAO NA LEITORA')).toBe(two('INSIRA OU PASSE', 'O CARTAO NA'));
  });

  it("the terminal's line break is kept, not turned into a space", async () => {
    expect(await notification('VALOR\rR$ 10,00')).toBe(two('VALOR', 'R$ 10,00'));
    expect(await notification('APROXIME, INSIRA\rOU PASSE CARTAO')).toBe(two('APROXIME, INSIRA', 'OU PASSE CARTAO'));
  });
});

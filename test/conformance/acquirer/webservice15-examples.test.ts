import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer } from '../../../src/acquirer/webservice15/answers.js';
import { queryOutcome, saleOutcome, type Ws15Exchange } from '../../../src/acquirer/webservice15/outcomes.js';
import { formBody } from '../../../src/acquirer/webservice15/transport.js';
import { readXml, textAt } from '../../../src/core/index.js';
import { listenWs15, TEST_STORE, type RunningWs15 } from '../../../src/sandbox/index.js';
import data from './webservice15-examples.json' with { type: 'json' };

/**
 * The conformance corpus of the XML webservice 1.5: every XML example of the manual
 * (webservice15-examples.json: line of the block's fence in DeveloperCielo/Webservice-1.5
 * `source/index.md` at 41c9584, section, root, whether the manual elided parts with
 * `<!-- ... -->`, the text as printed), replayed both ways:
 *
 * 1. every example request is posted, as printed, to the sandbox's host model on its own listener,
 *    which answers it as the manual says, or refuses it with the published `erro` for the reason
 *    written beside its line (most examples elide required elements or carry a shortened key);
 * 2. every example answer is read by our client into what the manual's text says it means.
 */

interface Example {
  line: number;
  section: string;
  root: string;
  kind: 'request' | 'answer';
  elided: boolean;
  text: string;
}

const EXAMPLES = data.examples as Example[];
const REQUESTS = EXAMPLES.filter((e) => e.kind === 'request');
const ANSWERS = EXAMPLES.filter((e) => e.kind === 'answer');

let ws: RunningWs15;
beforeAll(async () => {
  ws = await listenWs15();
});
afterAll(async () => {
  await ws.close();
});

async function post(text: string): Promise<string> {
  const res = await request(ws.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: formBody(text),
  });
  return Buffer.from(await res.body.arrayBuffer()).toString('latin1');
}

/**
 * A transaction the manual's tid-based examples can reach: created by the manual's first request
 * (line 285) completed — the full test key, `autorizar` 3, credit at sight, no empty
 * `taxa-embarque` — then filed under the example's own TID (the host's state, as a fixture).
 */
async function plant(tid: string, o: { order?: string; cents: number; capture: boolean }): Promise<void> {
  const first = EXAMPLES.find((e) => e.line === 285) as Example;
  const text = first.text
    .replace(/<chave>[^<]*<\/chave>/, `<chave>${TEST_STORE.key}</chave>`)
    .replace('<taxa-embarque/>', '')
    .replace('<produto>A</produto>', '<produto>1</produto>')
    .replace('<autorizar>1</autorizar>', '<autorizar>3</autorizar>')
    .replace('<capturar>false</capturar>', `<capturar>${o.capture}</capturar>`)
    .replace('<valor>1000</valor>', `<valor>${o.cents}</valor>`)
    .replace('<numero>178148599</numero>', `<numero>${o.order ?? '178148599'}</numero>`);
  const made = readXml(await post(text));
  const t = ws.host.transactions.get(textAt(made, 'tid') as string);
  if (!t) throw new Error(`not created: ${JSON.stringify(made)}`);
  ws.host.transactions.delete(t.tid);
  ws.host.transactions.set(tid, { ...t, tid });
}

/** What each example request gets, by line: the answer's root and status, or the `erro` code, and why. */
const EXPECTED: Record<
  number,
  { root: string; status?: string; erro?: string; why: string; plant?: Parameters<typeof plant>[1] }
> = {
  263: {
    root: 'transacao',
    status: '6',
    plant: { cents: 4000, capture: false },
    why: 'a partial capture: 3880 of a pre-authorization of 4000 (ws15:1398-1403)',
  },
  285: {
    root: 'erro',
    erro: '001',
    why: "`<taxa-embarque/>` is empty: the schema asks 1..9 digits (xsd:908-916), as the manual's own erro example (ws15:488) reports of an empty valor",
  },
  816: { root: 'erro', erro: '001', why: 'dados-pedido elided (`<!-- ... -->`): its numero is required (ws15:374)' },
  859: { root: 'erro', erro: '001', why: 'dados-pedido elided' },
  942: {
    root: 'erro',
    erro: '020',
    plant: { cents: 1000, capture: false },
    why: 'the transaction did not stop after an authentication (ws15:957): status does not allow it (ws15:743)',
  },
  969: { root: 'retorno-token', why: 'the full test key and a card: a token (ws15:1003-1024)' },
  1028: { root: 'erro', erro: '001', why: 'dados-pedido elided' },
  1060: { root: 'erro', erro: '001', why: 'dados-pedido elided' },
  1132: { root: 'erro', erro: '001', why: 'everything but gerar-token elided: dados-ec is required (ws15:341)' },
  1150: { root: 'erro', erro: '001', why: 'elided' },
  1181: { root: 'erro', erro: '001', why: 'elided' },
  1209: { root: 'erro', erro: '001', why: 'elided' },
  1224: { root: 'erro', erro: '001', why: 'elided' },
  1252: { root: 'erro', erro: '001', why: 'elided' },
  1315: {
    root: 'transacao',
    status: '6',
    plant: { cents: 1000, capture: true },
    why: 'query by TID (ws15:1306-1331); the key as printed, with a line break before </chave>',
  },
  1345: {
    root: 'transacao',
    status: '4',
    plant: { cents: 1000, capture: false, order: '1663784368' },
    why: 'query by order number (ws15:1333-1361), declared UTF-8 as printed',
  },
  1382: {
    root: 'transacao',
    status: '6',
    plant: { cents: 1000, capture: false },
    why: 'whole capture of 1000 with taxa-embarque 0',
  },
  1444: {
    root: 'erro',
    erro: '001',
    plant: { cents: 1000, capture: true },
    why: '`<valor>0</valor>`: the manual does not say what a cancellation of 0 means; refused, not guessed (an amount is at least 1, xsd:157)',
  },
};

describe(`the manual's ${REQUESTS.length} example requests, posted as printed to the sandbox`, () => {
  it('has an expectation for every example request, and the corpus counts 26 examples (18 requests, 8 answers)', () => {
    expect(REQUESTS.map((e) => e.line).sort((a, b) => a - b)).toEqual(
      Object.keys(EXPECTED)
        .map(Number)
        .sort((a, b) => a - b),
    );
    expect([EXAMPLES.length, REQUESTS.length, ANSWERS.length]).toEqual([26, 18, 8]);
  });

  it.each(REQUESTS.map((e) => [e.line, e.root, e] as const))('line %i, %s', async (line, _root, e) => {
    const want = EXPECTED[line] as (typeof EXPECTED)[number];
    const tid = /<tid>([^<]+)<\/tid>/.exec(e.text)?.[1];
    if (want.plant) await plant(tid ?? `1006993069${String(line).padStart(6, '0')}1001`, want.plant);
    const got = readXml(await post(e.text));
    expect(got.name, want.why).toBe(want.root);
    if (want.status !== undefined) expect(textAt(got, 'status'), want.why).toBe(want.status);
    if (want.erro !== undefined)
      expect(textAt(got, 'codigo'), `${want.why}: ${textAt(got, 'mensagem')}`).toBe(want.erro);
  });
});

const answer = (text: string): Ws15Exchange => ({ kind: 'answer', status: 200, text });

describe(`the manual's ${ANSWERS.length} example answers, read by our client`, () => {
  const byLine = (line: number): string => (ANSWERS.find((e) => e.line === line) as Example).text;

  it('427: status 4 with autorizacao lr 00: a pre-authorization, approved when capture was not asked', () => {
    expect(saleOutcome(answer(byLine(427)), false)).toMatchObject({
      answer: 'approved',
      paymentId: '100699306908642F1001',
      state: 'pending',
      authorizationCode: '123456',
    });
    expect(saleOutcome(answer(byLine(427)), true).answer).toBe('anomaly');
  });

  it('484: erro 001, "Mensagem inválida": refused, nothing created', () => {
    expect(saleOutcome(answer(byLine(484)), true)).toMatchObject({ answer: 'refused' });
    expect(readAnswer(byLine(484))).toMatchObject({ kind: 'erro', code: '001', row: { code: 1 } });
  });

  it('540: status 6 with captura: approved and captured', () => {
    expect(saleOutcome(answer(byLine(540)), true)).toMatchObject({ answer: 'approved', state: 'approved' });
    expect(queryOutcome(answer(byLine(540)))).toMatchObject({ kind: 'found', state: 'approved', captured: true });
    expect(readAnswer(byLine(540))).toMatchObject({ capturedCents: 1000, authorizedCents: 1000, lr: '00' });
  });

  it('901 and 1093 (Renova Fácil): status 5, lr 57: declined; 1093 carries the new token', () => {
    expect(saleOutcome(answer(byLine(901)), true)).toMatchObject({ answer: 'declined', state: 'declined' });
    expect(readAnswer(byLine(1093))).toMatchObject({
      kind: 'transacao',
      status: '5',
      lr: '57',
      token: { unlocked: true, truncatedNumber: '455187******0183' },
    });
  });

  it('1005: retorno-token, unlocked', () => {
    expect(readAnswer(byLine(1005))).toEqual({
      kind: 'token',
      token: {
        code: 'TuS6LeBHWjqFFtE7S3zR052Jl/KUlD+tYJFpAdlA87E=',
        unlocked: true,
        truncatedNumber: '455187******0183',
      },
    });
  });

  it('1409 and 1477: the capture and cancellation answers elide their status: read as not decidable (the query decides)', () => {
    for (const line of [1409, 1477]) {
      expect(readAnswer(byLine(line))).toMatchObject({ kind: 'bad', reason: 'transacao without tid or status' });
      expect(queryOutcome(answer(byLine(line))).kind).toBe('unknown');
    }
  });
});

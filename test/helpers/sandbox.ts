import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { createAcquirer, type Acquirer } from '../../src/acquirer/index.js';
import type { PhysicalCard, PhysicalSaleRequest, VoidRequest } from '../../src/acquirer/omni/types.js';
import { deriveTdesKeys, encodePinBlock, encryptData, encryptPinBlock, withCounter } from '../../src/crypto/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { decodeTlv, toHex } from '../../src/emv/index.js';
import {
  buildSandbox,
  listenSandbox,
  sandboxSettings,
  type FaultSpec,
  type RunningSandbox,
  type LedgerReport,
  type SandboxOptions,
} from '../../src/sandbox/index.js';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import { SANDBOX_KEYS } from '../../tables/sandbox-keys.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { TEST_CARDS, type TestCard } from '../../tables/test-cards.js';

export const log = createLogger({ level: 'silent' });

/** The sandbox on a real loopback port with its own SQLite file, and the real clients pointed at it. */
export interface Harness {
  dir: string;
  running: RunningSandbox;
  acquirer: Acquirer;
  /** A fresh client (new token cache), e.g. after a restart. */
  newAcquirer(timeoutMs?: number): Acquirer;
  control(method: 'GET' | 'POST' | 'DELETE', p: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  ledger(): Promise<LedgerReport>;
  fault(route: string, spec: FaultSpec): Promise<void>;
  /** Stops and starts the sandbox on the same database file and port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  outcomeAttempts?: number;
  withholdMs?: number;
  clientTimeoutMs?: number;
  tokenTtlSeconds?: number;
  /** Any other sandbox option (callback URL, key lifetime…). */
  extra?: Partial<SandboxOptions>;
}

export async function startHarness(o: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-sandbox-'));
  const dbFile = path.join(dir, 'sandbox.db');
  const build = (): ReturnType<typeof buildSandbox> =>
    buildSandbox({
      dbFile,
      log,
      // cents outcomes repeat on every attempt, as the public sandbox does; a test whose retry must
      // get past one asks for the first-N scenario with outcomeAttempts
      ...(o.outcomeAttempts !== undefined ? { outcomeAttempts: o.outcomeAttempts } : {}),
      withholdMs: o.withholdMs ?? 6000,
      ...(o.tokenTtlSeconds !== undefined ? { tokenTtlSeconds: o.tokenTtlSeconds } : {}),
      // The terminal-built wallet QR codes these tests pay need an acquirer that registers them
      // (the host's default refuses them with 422.002; sandbox-contract.test.ts proves it).
      scenario: { registersTerminalQr: true },
      ...o.extra,
    });
  let running = await listenSandbox(build());
  let dispatcher = new Agent();
  const make = (timeoutMs = o.clientTimeoutMs ?? 5000): Acquirer =>
    createAcquirer({
      settings: {
        ...sandboxSettings(running),
        clientId: SANDBOX_CREDENTIALS.clientId,
        timeoutMs,
      },
      clientSecret: { reveal: () => SANDBOX_CREDENTIALS.clientSecret },
      ecommerce: {
        merchantId: SANDBOX_CREDENTIALS.merchantId,
        merchantKey: { reveal: () => SANDBOX_CREDENTIALS.merchantKey },
      },
      environment: 'sandbox',
      clock: { now: () => new Date() },
      log,
      dispatcher,
    });
  const h: Harness = {
    dir,
    running,
    acquirer: make(),
    newAcquirer: make,
    async control(method, p, body) {
      const res = await request(`${running.url}${p}`, {
        method,
        dispatcher,
        ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
    async ledger() {
      return (await h.control('GET', '/sandbox/ledger')).body as LedgerReport;
    },
    async fault(route, spec) {
      const r = await h.control('POST', '/sandbox/faults', { route, ...spec });
      if (r.status !== 200) throw new Error(`fault refused: ${JSON.stringify(r.body)}`);
    },
    async restart() {
      const { port, ports } = running;
      await running.close();
      running = await listenSandbox(build(), { port, ports });
      h.running = running;
      // connections to the old process are gone: a real client would open new ones
      await dispatcher.close();
      dispatcher = new Agent();
    },
    async close() {
      await running.close();
      await dispatcher.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

let counter = 1;
let orderSeq = 0;

/** A never-repeating MerchantOrderId for the tests (15 digits). */
export function nextOrderId(): string {
  orderSeq++;
  return `${String(Date.now()).slice(-8)}${String(process.pid % 100).padStart(2, '0')}${String(orderSeq).padStart(5, '0')}`;
}

export function card(lastDigit: number): TestCard {
  const c = TEST_CARDS.find((t) => t.lastDigitOutcome === lastDigit && t.pin === '1234');
  if (!c) throw new Error(`no test card ending ${lastDigit}`);
  return c;
}

/** The card node a terminal sends: track 2 (or typed PAN) under the DUKPT data key in CBC, PIN block format 0 under the PIN key. */
export function cardNode(
  c: TestCard,
  o: { inputMode?: PhysicalCard['InputMode']; pin?: string | null; ivHex?: string } = {},
): PhysicalCard {
  const inputMode = o.inputMode ?? 'Emv';
  const dataKsn = withCounter(SANDBOX_KEYS.dataInitialKsn, counter++).hex;
  const iv = o.ivHex ?? '0011223344556677';
  const key = deriveTdesKeys(SANDBOX_KEYS.bdk, dataKsn).dataKeyRequest;
  const clear = Buffer.from(inputMode === 'Typed' ? c.pan : c.track2, 'ascii');
  const cipher = encryptData(key, clear, { iv }).toString('hex').toUpperCase();
  const node: PhysicalCard = {
    InputMode: inputMode,
    AuthenticationMethod: o.pin === null ? 'NoPassword' : 'OnlineAuthentication',
    BrandId: c.brandId,
    IssuerId: c.issuerId,
    ExpirationDate: c.expirationDate,
    EncryptedCardData: {
      EncryptionType: 'Dukpt3DesCBC',
      InitializationVector: iv,
      ...(inputMode === 'Typed' ? { CardNumberKSN: dataKsn } : { TrackTwoDataKSN: dataKsn }),
      IsDataInTLVFormat: false,
    },
    ...(inputMode === 'Typed' ? { CardNumber: cipher, SecurityCodeStatus: 'Nonexistent' } : { TrackTwoData: cipher }),
    ...(inputMode === 'Emv' || inputMode === 'ContactlessEmv'
      ? {
          EmvData: '9F2608A1B2C3D4E5F607089F2701809F3704DEADBEEF950500000000009F100706011A03900000',
          PanSequenceNumber: Number(c.panSequenceNumber),
        }
      : {}),
  };
  if (inputMode === 'MagStripe') {
    // the stripe sale's track 1 (CONECTA_PT 3099: "Sim"), encrypted like track 2 under its own KSN
    const t1Ksn = withCounter(SANDBOX_KEYS.dataInitialKsn, counter++).hex;
    const t1 = Buffer.from(`B${c.pan}^TESTE/CARTAO^${c.track2.split('=')[1]?.slice(0, 7) ?? ''}000000000`, 'ascii');
    (node as unknown as Record<string, unknown>).TrackOneData = encryptData(
      deriveTdesKeys(SANDBOX_KEYS.bdk, t1Ksn).dataKeyRequest,
      t1,
      { iv },
    )
      .toString('hex')
      .toUpperCase();
    (node.EncryptedCardData as unknown as Record<string, unknown>).TrackOneDataKSN = t1Ksn;
  }
  if (o.pin !== null) {
    const pinKsn = withCounter(SANDBOX_KEYS.pinInitialKsn, counter++).hex;
    const pinKey = deriveTdesKeys(SANDBOX_KEYS.bdk, pinKsn).pinKey;
    const block = encodePinBlock({ format: 0, pin: o.pin ?? c.pin, pan: c.pan });
    node.PinBlock = {
      EncryptedPinBlock: encryptPinBlock(pinKey, block).toString('hex').toUpperCase(),
      EncryptionType: 'Dukpt3Des',
      KsnIdentification: pinKsn,
    };
  }
  return node;
}

export function sale(
  amount: number,
  o: { lastDigit?: number; orderId?: string; card?: PhysicalCard; debit?: boolean } = {},
): PhysicalSaleRequest {
  const c = card(o.lastDigit ?? 0);
  const node = o.card ?? cardNode(c);
  return {
    MerchantOrderId: o.orderId ?? nextOrderId(),
    Payment: {
      SubordinatedMerchantId: SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
      Type: o.debit ? 'PhysicalDebitCard' : 'PhysicalCreditCard',
      Amount: amount,
      Installments: 1,
      Interest: 'ByMerchant',
      Capture: true,
      SoftDescriptor: 'OMNIPOS',
      ProductId: c.productId,
      PaymentDateTime: new Date().toISOString(),
      ...(o.debit ? { DebitCard: node } : { CreditCard: node }),
      PinPadInformation: {
        TerminalId: SANDBOX_MERCHANT.terminal.terminalId,
        SerialNumber: 'VIRT00000001',
        PhysicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
        ReturnDataInfo: '00',
      },
    },
  };
}

export function voidRequest(amount: number, lastDigit = 0, merchantVoidId = nextOrderId()): VoidRequest {
  return {
    MerchantVoidId: merchantVoidId,
    MerchantVoidDate: new Date().toISOString(),
    VoidAmount: amount,
    Card: cardNode(card(lastDigit)),
  };
}

export const EMV_CONFIRM = {
  EmvData: '9F2608A1B2C3D4E5F607089F2701409F3704DEADBEEF950500000000009F100706011A03900000',
  IssuerScriptResults: '0000',
};
export const EMV_UNDO = {
  EmvData: '9F2608A1B2C3D4E5F607089F2701009F3704DEADBEEF95050000000000',
  IssuerScriptsResults: '0000',
};

/** EMV data as the outbox's ports take it: hex by tag (a primitive TLV list decoded). */
export function emvTags(hex: string): Record<string, string> {
  return Object.fromEntries(decodeTlv(hex).map((t) => [t.tag, toHex(t.value).toUpperCase()]));
}

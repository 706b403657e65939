import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcquirer, type Acquirer, type AcquirerSettings } from '../../../src/acquirer/index.js';
import { runCli } from '../../../src/cli/run.js';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { json, loopback, type Recorded } from '../../helpers/loopback.js';

/**
 * Each call on the host the manual gives it, over real HTTP with one loopback listener per host:
 * the e-commerce page's "Consultas" host for `GET /1/sales/{id}` and `GET /1/cardBin/{bin}`
 * (_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md lines 45-46, 494), and the
 * registration host for `POST /terminals` with the current flat body (Conecta pt page lines
 * 9890-9898 and 9942-9952), with no fallback to the parameters host.
 */

const tempDir = useTempDirs();
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function host(name: string, seen: { host: string; req: Recorded }[]): Promise<string> {
  const s = await loopback((req, res) => {
    seen.push({ host: name, req });
    if (req.url === '/oauth2/token')
      return json(res, 200, { access_token: 't', token_type: 'bearer', expires_in: 3600 });
    if (req.url.startsWith('/1/sales/'))
      return json(res, 200, { MerchantOrderId: '1', Payment: { PaymentId: 'p1', Status: 2, Amount: 100 } });
    if (req.url.startsWith('/1/cardBin/'))
      return json(res, 200, {
        Status: '00',
        Provider: 'VISA',
        CardType: 'Crédito',
        ForeignCard: false,
        CorporateCard: false,
        IssuerCode: '001',
      });
    if (req.url === '/terminals') return json(res, 201, { Terminal: { TerminalId: '42004299' } });
    json(res, 404, [{ Code: 0, Message: 'not served here' }]);
  });
  cleanup.push(s.close);
  return s.url;
}

function acquirer(settings: AcquirerSettings): Acquirer {
  const a = createAcquirer({
    settings,
    clientSecret: { reveal: () => 'x' },
    ecommerce: { merchantId: '00000000-0000-4000-8000-000000000009', merchantKey: { reveal: () => 'k' } },
    environment: 'sandbox',
    clock: { now: () => new Date() },
    log: createLogger({ level: 'silent' }),
    dispatcher: new Agent(),
  });
  cleanup.push(() => a.close());
  return a;
}

describe('e-commerce queries go to the query host (the old code sent them to the request host)', () => {
  it('GET /1/sales/{id} and GET /1/cardBin/{bin} on ecommerceQueryUrl; POST /1/sales and PUT …/void stay on ecommerceUrl', async () => {
    const seen: { host: string; req: Recorded }[] = [];
    const request = await host('ecommerce', seen);
    const query = await host('ecommerceQuery', seen);
    const omni = await host('omni', seen);
    const a = acquirer({
      authUrl: omni,
      requestUrl: omni,
      queryUrl: omni,
      parametersUrl: omni,
      walletUrl: omni,
      ecommerceUrl: request,
      ecommerceQueryUrl: query,
      clientId: 'c',
      timeoutMs: 5000,
    });
    await a.ecommerce!.getSale('p1');
    await a.ecommerce!.cardBin('411011');
    await a.ecommerce!.voidSale('p1').catch(() => undefined);
    expect(seen.map((s) => `${s.host} ${s.req.method} ${s.req.url}`)).toEqual([
      'ecommerceQuery GET /1/sales/p1',
      'ecommerceQuery GET /1/cardBin/411011',
      'ecommerce PUT /1/sales/p1/void',
    ]);
    // The void names its Content-Type (the manual's curl for PUT …/void, e-commerce page line 1952ff).
    expect(seen.at(-1)!.req.headers['content-type']).toBe('application/json');
  });
});

describe('registration: its own host, the flat POST /terminals body', () => {
  it('without a registration address a registration call fails before anything is sent (no fallback to the parameters host)', async () => {
    const seen: { host: string; req: Recorded }[] = [];
    const params = await host('parameters', seen);
    const a = acquirer({
      authUrl: params,
      requestUrl: params,
      queryUrl: params,
      parametersUrl: params,
      walletUrl: params,
      ecommerceUrl: params,
      clientId: 'c',
      timeoutMs: 5000,
    });
    const e = await a.omni.createTerminal({ TerminalId: '42004299' }).catch((x: unknown) => x);
    expect(isOmniposError(e, 'INVALID_ARGUMENT')).toBe(true);
    expect(seen.filter((s) => s.req.url === '/terminals')).toEqual([]);
  });

  it('omnipos register terminal sends the manual’s flat body to acquirer.registrationUrl (the old code wrapped it in TerminalBaseModel)', async () => {
    const seen: { host: string; req: Recorded }[] = [];
    const auth = await host('auth', seen);
    const registration = await host('registration', seen);
    const parameters = await host('parameters', seen);
    const env = {
      OMNIPOS_STATE_DIR: tempDir(),
      OMNIPOS_SANDBOX__EMBEDDED: 'false',
      OMNIPOS_ACQUIRER__AUTH_URL: auth,
      OMNIPOS_ACQUIRER__PARAMETERS_URL: parameters,
      OMNIPOS_ACQUIRER__REGISTRATION_URL: registration,
    };
    let err = '';
    const code = await runCli(
      [
        'register',
        'terminal',
        '--terminal-id',
        '42004299',
        '--merchant',
        '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
        '--model',
        '1',
        '--serial',
        'VPP0000000001',
      ],
      { out: () => undefined, err: (s) => (err += s), env },
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    const post = seen.find((s) => s.req.url === '/terminals')!;
    expect(post.host).toBe('registration');
    expect(JSON.parse(post.req.body)).toEqual({
      SubordinatedMerchantId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f60718',
      CommunicationType: 'PERFIL_PADRAO',
      TerminalId: '42004299',
      EquipmentModel: 1,
      EquipmentSerialNumber: 'VPP0000000001',
    });
    expect(seen.filter((s) => s.host === 'parameters')).toEqual([]);
  });
});

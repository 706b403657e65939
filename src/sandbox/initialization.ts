import { sandboxTables } from '../../tables/initialization/sandbox-tables.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { INITIALIZATION_VERSION } from './answers.js';
import { requireToken } from './auth.js';
import type { SandboxContext } from './context.js';
import type { Answer, SandboxRequest } from './http-kit.js';
import { checkTerminal, recordTechnical } from './registration.js';

function tables(ctx: SandboxContext, merchantId: string, terminalId: string): Record<string, unknown> {
  const m = SANDBOX_MERCHANT.merchant;
  const { Acquirer, Bins, Products, Emv, Parameters, Issuers, AidParameters, PublicKeys } = sandboxTables();
  void ctx;
  return {
    MerchantId: merchantId === m.subordinatedMerchantId ? m.merchantNumber : merchantId,
    TerminalId: terminalId,
    Acquirer,
    Merchant: {
      MerchantId: m.merchantNumber,
      NetworkName: 'SIMULADO',
      MerchantName: m.name,
      MerchantAddress: m.address,
      NationalId: m.nationalId,
    },
    Bins,
    Products,
    Emv,
    Parameters,
    Issuers,
    AidParameters,
    PublicKeys,
    InitializationVersion: INITIALIZATION_VERSION,
  };
}

/** `GET /initialization/{SubordinatedMerchantId}/{TerminalId}`: the tables, for a registered terminal. */
export function getInitialization(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const merchantId = req.route.params.SubordinatedMerchantId ?? '';
  const terminalId = req.route.params.TerminalId ?? '';
  checkTerminal(ctx, merchantId, terminalId);
  return { status: 200, body: tables(ctx, merchantId.toLowerCase(), terminalId) };
}

/** `POST /initialization` ("baixa técnica"): records the pinpad's TechnicalParameter, then answers the tables. */
export function postInitialization(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'transactional');
  const { merchantId, terminalId } = recordTechnical(ctx, req);
  return { status: 200, body: tables(ctx, merchantId, terminalId) };
}

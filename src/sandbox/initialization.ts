import { sandboxTables } from '../../tables/initialization/sandbox-tables.js';
import { builtInMerchant } from '../../tables/sandbox/merchants.js';
import { INITIALIZATION_VERSION } from './answers.js';
import { requireToken } from './auth.js';
import type { SandboxContext } from './context.js';
import type { Answer, SandboxRequest } from './http-kit.js';
import { checkTerminal, recordTechnical } from './registration.js';

/**
 * The `Merchant` block of the initialization: the merchant the terminal belongs to — a built-in
 * merchant's own number, name, address and document (tables/sandbox/merchants.ts), or a registered
 * merchant's own registration (`TradeName`, `Address`, `DocumentNumber`), never another's.
 */
function merchantBlock(ctx: SandboxContext, merchantId: string): { number: string; block: Record<string, unknown> } {
  const builtIn = builtInMerchant(merchantId);
  if (builtIn) {
    const m = builtIn.merchant;
    return {
      number: m.merchantNumber,
      block: {
        MerchantId: m.merchantNumber,
        NetworkName: 'SIMULADO',
        MerchantName: m.name,
        MerchantAddress: m.address,
        NationalId: m.nationalId,
      },
    };
  }
  const row = ctx.db.prepare(`SELECT body FROM merchants WHERE subordinated_merchant_id = ?`).get(merchantId) as
    { body: string } | undefined;
  const body = (row ? JSON.parse(row.body) : {}) as {
    TradeName?: string;
    DocumentNumber?: string;
    Address?: { Street?: string; Number?: string };
  };
  const address = [body.Address?.Street, body.Address?.Number].filter((x) => x).join(', ');
  return {
    number: merchantId,
    block: {
      MerchantId: merchantId,
      NetworkName: 'SIMULADO',
      MerchantName: body.TradeName ?? '',
      MerchantAddress: address,
      NationalId: body.DocumentNumber ?? '',
    },
  };
}

function tables(ctx: SandboxContext, merchantId: string, terminalId: string): Record<string, unknown> {
  const { Acquirer, Bins, Products, Emv, Parameters, Issuers, AidParameters, PublicKeys } = sandboxTables();
  const merchant = merchantBlock(ctx, merchantId);
  return {
    MerchantId: merchant.number,
    TerminalId: terminalId,
    Acquirer,
    Merchant: merchant.block,
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

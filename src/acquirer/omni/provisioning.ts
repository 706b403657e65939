import { isOmniposError, OmniposError } from '../../core/index.js';
import type {
  AcquirerProvisioning,
  StoreRegistration,
  TerminalRegistration,
  TerminalTechnicalFacts,
} from '../../engine/index.js';
import type { Acquirer } from '../create.js';
import { acquirerContext } from '../errors.js';
import { technicalParameter } from './technical.js';

/**
 * The `POST /terminals` body as the current manual writes it: flat, not under `TerminalBaseModel`
 * (Conecta pt page, "Criar Terminal sem Equipamento" lines 9890-9898 and "com Equipamento"
 * 9942-9952; the English page's TerminalBaseModel wrapper, 2484-2489, is the older shape).
 */
export function terminalRegistration(t: TerminalRegistration): Record<string, unknown> {
  return {
    SubordinatedMerchantId: t.merchantId,
    CommunicationType: 'PERFIL_PADRAO',
    TerminalId: t.terminalId,
    ...(t.equipment
      ? { EquipmentModel: t.equipment.model, EquipmentSerialNumber: t.equipment.serial }
      : { SkipEquipment: true }),
  };
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/** A merchant answer (`{ Merchant: {…} }` or the merchant itself) as the engine names it. */
export function storeRegistration(answer: Readonly<Record<string, unknown>>): StoreRegistration {
  const inner = answer.Merchant;
  const merchant: Readonly<Record<string, unknown>> =
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? { ...inner } : answer;
  const type = text(merchant.DocumentType);
  const number = text(merchant.DocumentNumber);
  return {
    merchantId: text(merchant.SubordinatedMerchantId) ?? '',
    tradeName: text(merchant.TradeName),
    document: number === undefined ? undefined : type === undefined ? number : `${type} ${number}`,
    answer: merchant,
  };
}

/** The host refused a field (400, 404, 409, 422): the input is wrong, not the network. */
async function refusalIsInput<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const status = isOmniposError(e, 'ACQUIRER_HTTP') ? acquirerContext(e)?.status : undefined;
    if (isOmniposError(e) && status !== undefined && status >= 400 && status < 500)
      throw new OmniposError('INVALID_ARGUMENT', e.message, e.context);
    throw e;
  }
}

/**
 * The omni acquirer's side of the technician's commands: `POST /initialization` with the
 * `TechnicalParameter` (technical.ts), `POST /merchants`, `GET /merchants/{id}`, `POST /terminals`
 * on the registration address, and the wallet API's card payment (sandbox). Closing it closes `acquirer`.
 */
export function omniProvisioning(acquirer: Acquirer, walletAddress: string): AcquirerProvisioning {
  const { omni } = acquirer;
  return {
    kind: 'omni',
    initialization(t: { merchantId: string; terminalId: string; facts: TerminalTechnicalFacts }) {
      const technical = technicalParameter(t.facts);
      return {
        request: 'POST /initialization',
        sent: { ...technical },
        source: {
          download: () =>
            omni.initializationTechnical({
              SubordinatedMerchantId: t.merchantId,
              TerminalId: t.terminalId,
              TechnicalParameter: technical,
            }),
        },
      };
    },
    registerStore: async (fields) => storeRegistration(await refusalIsInput(() => omni.createMerchant({ ...fields }))),
    store: async (merchantId) => storeRegistration(await refusalIsInput(() => omni.getMerchant(merchantId))),
    registerTerminal: (t) => refusalIsInput(() => omni.createTerminal(terminalRegistration(t))),
    wallet: {
      address: walletAddress,
      pay: (p) => acquirer.wallet.pay(p),
    },
    close: () => acquirer.close(),
  };
}

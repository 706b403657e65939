import { BUILT_IN_MERCHANTS, builtInMerchant } from '../../tables/sandbox/merchants.js';
import { isValidCnpj, isValidCpf } from '../crypto/index.js';
import { requireToken } from './auth.js';
import { newUuid, type SandboxContext } from './context.js';
import { apiError, CODE } from './errors.js';
import { Fields, invalidFields, objectBody, type Answer, type SandboxRequest } from './http-kit.js';
import { PHYSICAL_CHARACTERISTICS } from './sale-validate.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\d{10,14}$/;

/** True when the merchant is the built-in test merchant or was registered. */
export function merchantExists(ctx: SandboxContext, id: string): boolean {
  if (builtInMerchant(id)) return true;
  return ctx.db.prepare(`SELECT 1 FROM merchants WHERE subordinated_merchant_id = ?`).get(id) !== undefined;
}

/**
 * The SubordinatedMerchantId whose number a QR code's 26.01 carries: a built-in merchant's own number,
 * or a registered merchant's id (the number its initialization gives, initialization.ts).
 */
export function merchantByNumber(ctx: SandboxContext, merchantNumber: string): string | undefined {
  const builtIn = BUILT_IN_MERCHANTS.find((m) => m.merchant.merchantNumber === merchantNumber);
  if (builtIn) return builtIn.merchant.subordinatedMerchantId;
  const id = merchantNumber.toLowerCase();
  return ctx.db.prepare(`SELECT 1 FROM merchants WHERE subordinated_merchant_id = ?`).get(id) !== undefined
    ? id
    : undefined;
}

/** True when the terminal is registered for the merchant. */
export function terminalExists(ctx: SandboxContext, merchantId: string, terminalId: string): boolean {
  if (builtInMerchant(merchantId)?.terminal.terminalId === terminalId) return true;
  return (
    ctx.db
      .prepare(`SELECT 1 FROM terminals WHERE terminal_id = ? AND subordinated_merchant_id = ?`)
      .get(terminalId, merchantId) !== undefined
  );
}

/** Every field of the manual's merchant table, validated; `withOwner` for create. */
function validateMerchant(body: Record<string, unknown>, withOwner: boolean): void {
  const f = new Fields(body);
  f.string('SubordinatedMerchantId', {
    optional: true,
    re: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    hint: 'must be a GUID',
  });
  f.string('Address.ZipCode', { re: /^\d{5}-?\d{3}$/, hint: 'must be a CEP (8 digits)' });
  f.string('Address.Street', { optional: true, re: /^.{0,120}$/, hint: 'at most 120 characters' });
  f.string('Address.Number', { re: /^.{1,9}$/, hint: 'at most 9 characters' });
  f.string('Address.Complement', { optional: true, re: /^.{0,120}$/, hint: 'at most 120 characters' });
  f.string('TradeName', { re: /^.{1,35}$/, hint: 'at most 35 characters' });
  f.string('Email', { optional: true, re: EMAIL, hint: 'must be an email address' });
  f.string('PhoneNumber', { re: PHONE, hint: 'must be 10 to 14 digits' });
  f.int('Mcc', { min: 1, max: 9999 });
  const type = f.string('DocumentType', { oneOf: ['Cpf', 'Cnpj'] });
  const doc = f.string('DocumentNumber', { re: /^\d{11}$|^\d{14}$/, hint: 'must be 11 (CPF) or 14 (CNPJ) digits' });
  if (type === 'Cnpj') f.string('CompanyName', { re: /^.{1,35}$/, hint: 'at most 35 characters' });
  else f.string('CompanyName', { optional: true, re: /^.{0,35}$/, hint: 'at most 35 characters' });
  f.string('SoftDescriptor', { optional: true, re: /^.{0,13}$/, hint: 'at most 13 characters' });
  if (doc && type === 'Cpf' && !isValidCpf(doc)) f.problems.push('DocumentNumber: Dígito verificador inválido (CPF)');
  if (doc && type === 'Cnpj' && !isValidCnpj(doc))
    f.problems.push('DocumentNumber: Dígito verificador inválido (CNPJ)');
  if (withOwner) {
    f.string('Owner.Name', { re: /^.{1,50}$/, hint: 'at most 50 characters' });
    f.string('Owner.Email', { re: EMAIL, hint: 'must be an email address' });
    f.string('Owner.PhoneNumber', { re: PHONE, hint: 'must be 10 to 14 digits' });
    f.string('Owner.MessengerPhone', { re: PHONE, hint: 'must be 10 to 14 digits' });
    f.string('Owner.Gender', { optional: true, oneOf: ['Other', 'Male', 'Female'] });
  } else if (body.Owner !== undefined) {
    f.problems.push('Owner: not accepted on change');
  }
  f.string('TefConfig.MerchantAcquirerId', { optional: true, re: /^\d{1,15}$/, hint: 'at most 15 digits' });
  f.string('TefConfig.LogicalNumber', { optional: true, re: /^.{1,10}$/, hint: 'at most 10 characters' });
  f.check();
}

/** `POST /merchants`. */
export function createMerchant(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'registration');
  const body = objectBody(req);
  validateMerchant(body, true);
  const id = typeof body.SubordinatedMerchantId === 'string' ? body.SubordinatedMerchantId.toLowerCase() : newUuid();
  if (merchantExists(ctx, id)) throw invalidFields([`SubordinatedMerchantId: ${id} already exists`]);
  const stored = { ...body, SubordinatedMerchantId: id };
  ctx.db
    .prepare(`INSERT INTO merchants (subordinated_merchant_id, document_number, body) VALUES (?, ?, ?)`)
    .run(id, body.DocumentNumber, JSON.stringify(stored));
  return { status: 201, body: stored };
}

function merchantBody(ctx: SandboxContext, id: string): Record<string, unknown> {
  const builtIn = builtInMerchant(id);
  if (builtIn) {
    const m = builtIn.merchant;
    return {
      SubordinatedMerchantId: m.subordinatedMerchantId,
      TradeName: m.name,
      DocumentNumber: m.nationalId,
      DocumentType: 'Cnpj',
      Mcc: Number(m.mcc),
    };
  }
  const row = ctx.db.prepare(`SELECT body FROM merchants WHERE subordinated_merchant_id = ?`).get(id) as
    { body: string } | undefined;
  if (!row) throw apiError(404, CODE.merchantIdNotFound, `merchant ${id}`);
  return JSON.parse(row.body) as Record<string, unknown>;
}

/** `GET /merchants/{SubordinatedMerchantId}`. */
export function getMerchant(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'registration');
  return {
    status: 200,
    body: { Merchant: merchantBody(ctx, (req.route.params.SubordinatedMerchantId ?? '').toLowerCase()) },
  };
}

/** `PUT /merchants/{SubordinatedMerchantId}`: the create fields without `Owner`. */
export function updateMerchant(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'registration');
  const id = (req.route.params.SubordinatedMerchantId ?? '').toLowerCase();
  if (builtInMerchant(id)) throw apiError(400, CODE.internal, 'a built-in test merchant cannot change');
  const current = merchantBody(ctx, id);
  const body = objectBody(req);
  validateMerchant(body, false);
  const stored = { ...body, Owner: current.Owner, SubordinatedMerchantId: id };
  ctx.db
    .prepare(`UPDATE merchants SET body = ?, document_number = ? WHERE subordinated_merchant_id = ?`)
    .run(JSON.stringify(stored), body.DocumentNumber, id);
  return { status: 200, body: stored };
}

/** `POST /terminals`: flat (manual) or under `TerminalBaseModel` (002). */
export function createTerminal(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireToken(ctx, req, 'registration');
  // The current manual's body is flat (CONECTA_PT 9890-9898, 9942-9952); the English page's
  // TerminalBaseModel wrapper (CONECTA_EN 2484-2489) is the older shape, refused here.
  const body = objectBody(req);
  const f = new Fields(body);
  if (body.TerminalBaseModel !== undefined)
    f.problems.push("TerminalBaseModel: not a member; the terminal's fields go flat in the body");
  const merchantId = f.string('SubordinatedMerchantId', { re: /^[0-9a-f-]{36}$/i, hint: 'must be a GUID' });
  const terminalId = f.string('TerminalId', { re: /^[0-9A-Za-z]{8}$/, hint: 'must be 8 letters or digits' });
  f.string('CommunicationType');
  const skip = f.bool('SkipEquipment', { optional: true }) ?? false;
  if (!skip) {
    f.int('EquipmentModel', { min: 0 });
    f.string('EquipmentSerialNumber', { re: /^.{1,20}$/, hint: 'at most 20 characters' });
  }
  f.check();
  const mid = (merchantId as string).toLowerCase();
  if (!merchantExists(ctx, mid)) throw invalidFields([`SubordinatedMerchantId: no merchant ${mid}`]);
  const taken = ctx.db
    .prepare(`SELECT subordinated_merchant_id FROM terminals WHERE terminal_id = ?`)
    .get(terminalId) as { subordinated_merchant_id: string } | undefined;
  if (taken || BUILT_IN_MERCHANTS.some((m) => m.terminal.terminalId === terminalId))
    throw invalidFields([`TerminalId: ${String(terminalId)} is already registered`]);
  const now = ctx.clock.now();
  const terminal = { ...body, SubordinatedMerchantId: mid, SkipEquipment: skip, AcquirerIds: [4] };
  ctx.db
    .prepare(`INSERT INTO terminals (terminal_id, subordinated_merchant_id, body) VALUES (?, ?, ?)`)
    .run(terminalId, mid, JSON.stringify(terminal));
  return {
    status: 201,
    body: {
      Terminal: terminal,
      Activation: {
        Token: newUuid().slice(0, 8),
        CreateDate: now.toISOString(),
        ExpireDate: new Date(now.getTime() + 3_600_000).toISOString(),
      },
    },
  };
}

/** Validates `TechnicalParameter` of `POST /initialization` (every member the manual marks required). */
function validateTechnical(body: Record<string, unknown>): void {
  const f = new Fields(body);
  f.string('SubordinatedMerchantId');
  f.string('TerminalId');
  if (body.TechnicalParameter !== undefined) {
    for (const k of [
      'KernelEmvVersion',
      'ContactlessModuleVersion',
      'KernelPayPassVersion',
      'KernelContactlessPayWaveVersion',
      'HardwareModel',
      'ManufacturerName',
      'FirmwareVersion',
      'BasicLibVersion',
      'SpecificationVersion',
      'AcquirerVersion',
      'SimCardNumber',
      'PaymentAppVersion',
      'SerialNumber',
      'ReturnDataInfo',
    ]) {
      f.string(`TechnicalParameter.${k}`);
    }
    f.string('TechnicalParameter.PhysicalCharacteristics', { oneOf: PHYSICAL_CHARACTERISTICS });
  }
  f.check();
}

/** Refuses an unknown terminal as the public sandbox does (TerminalId ending 0404 → "TERMINAL INEXISTENTE"). */
export function checkTerminal(ctx: SandboxContext, merchantId: string, terminalId: string): void {
  if (
    terminalId.endsWith('0404') ||
    !merchantExists(ctx, merchantId.toLowerCase()) ||
    !terminalExists(ctx, merchantId.toLowerCase(), terminalId)
  ) {
    throw apiError(404, CODE.internal, 'TERMINAL INEXISTENTE');
  }
}

export function recordTechnical(ctx: SandboxContext, req: SandboxRequest): { merchantId: string; terminalId: string } {
  const body = objectBody(req);
  validateTechnical(body);
  const merchantId = (body.SubordinatedMerchantId as string).toLowerCase();
  const terminalId = body.TerminalId as string;
  checkTerminal(ctx, merchantId, terminalId);
  if (body.TechnicalParameter) {
    ctx.db
      .prepare(
        `INSERT INTO terminals (terminal_id, subordinated_merchant_id, body, technical) VALUES (?, ?, '{}', ?) ON CONFLICT(terminal_id) DO UPDATE SET technical = excluded.technical`,
      )
      .run(terminalId, merchantId, JSON.stringify(body.TechnicalParameter));
  }
  return { merchantId, terminalId };
}

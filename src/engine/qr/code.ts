import { HOST_TIME_ZONE, localTime } from '../../core/index.js';
import { buildPadraoq } from '../../qr/index.js';
import type { QrSaleRequest } from './types.js';

/** What the code says of the merchant and the terminal (from the initialization's Merchant table). */
export interface MerchantProfile {
  /** 26.01, the merchant number (16 digits). */
  merchantNumber: string;
  /** 26.02, the terminal's logical number (8 digits). */
  terminalId: string;
  /** 26.04, CPF/CNPJ digits. */
  nationalId?: string;
  mcc: string;
  name: string;
  city: string;
  postalCode?: string;
  /** 27.04: P for a counter's terminal, T for a kiosk (a decision: the document lists A/C/E/M/P/T without meanings). */
  deviceType: 'P' | 'T';
}

/** 81.02: debit 0001, credit 0002, store installments 0004, issuer installments 0008. */
export function modality(r: Pick<QrSaleRequest, 'method' | 'installments' | 'interest'>): string {
  if (r.method === 'debit') return '0001';
  if (r.installments > 1) return r.interest === 'ByIssuer' ? '0008' : '0004';
  return '0002';
}

/** 81.01, DDMMYYHHmmss in host time. */
export function qrTimestamp(at: Date, timeZone: string = HOST_TIME_ZONE): string {
  const t = localTime(at, timeZone);
  const seconds = Math.floor(t.decisecondsOfDay / 10);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(t.day)}${two(t.month)}${two(t.year % 100)}${two(Math.floor(seconds / 3600))}${two(Math.floor((seconds % 3600) / 60))}${two(seconds % 60)}`;
}

/** The current-model sale code for one QR sale; its reference label (62.05) is the MerchantOrderId. */
export function saleQrCode(
  p: MerchantProfile,
  s: { request: QrSaleRequest; merchantOrderId: string; nsu: string; issuedAt: Date },
): string {
  return buildPadraoq({
    merchantId: p.merchantNumber,
    terminalId: p.terminalId,
    ...(p.nationalId ? { merchantDocument: p.nationalId } : {}),
    deviceType: p.deviceType,
    mcc: p.mcc,
    amount: (s.request.amount / 100).toFixed(2),
    merchantName: p.name,
    merchantCity: p.city,
    ...(p.postalCode ? { postalCode: p.postalCode } : {}),
    referenceLabel: s.merchantOrderId,
    timestamp: qrTimestamp(s.issuedAt),
    modality: modality(s.request),
    installments: s.request.installments > 1 ? s.request.installments : 0,
    nsu: s.nsu,
  });
}

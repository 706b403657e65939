/**
 * QR build and parse, ours beside pix-utils on Pix BR Codes (what pix-utils does): the Banco
 * Central manual's static example and pix-utils' own README example. Both sides check the CRC
 * when parsing. The padraoq rows have no peer and are here to show their cost.
 */
import { createStaticPix, parsePix as pixUtilsParse } from 'pix-utils';
import { bench, describe } from 'vitest';
import { buildPadraoq, buildPix, parsePadraoq, parsePix } from '../../src/qr/index.js';

const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const PIX_UTILS_README =
  '00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils52040000530398654041.005802BR5914Thales Ogliari6009Sao Paulo62070503***63046069';

describe('QR parse: Pix, BCB manual static example', () => {
  bench('omnipos parsePix', () => {
    parsePix(BCB_STATIC);
  });
  bench('pix-utils parsePix', () => {
    pixUtilsParse(BCB_STATIC);
  });
});

describe('QR parse: Pix, pix-utils README example', () => {
  bench('omnipos parsePix', () => {
    parsePix(PIX_UTILS_README);
  });
  bench('pix-utils parsePix', () => {
    pixUtilsParse(PIX_UTILS_README);
  });
});

// Pix Automático, a dynamic charge with its recurrence (Banco Central sandbox code; test/vectors/qr/pix-automatico.json)
const BCB_COMPOSITE =
  '00020101021226940014br.gov.bcb.pix2572qr-h.sandbox.pix.bcb.gov.br/rest/api/v2/7b2d64c4eb744a2d92a4dd5f8cfc4dfa5204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***80950014br.gov.bcb.pix2573qr-h.sandbox.pix.bcb.gov.br/rest/api/rec/3d29b94249c54b3f8c533d729f59b5e56304DBE0';
if (parsePix(BCB_COMPOSITE).recurrence?.url !== (pixUtilsParse(BCB_COMPOSITE) as { urlRec?: string }).urlRec)
  throw new Error('the two parsers read the recurrence differently');

describe('QR parse: Pix Automático composite (dynamic charge + recurrence, BCB sandbox)', () => {
  bench('omnipos parsePix', () => {
    parsePix(BCB_COMPOSITE);
  });
  bench('pix-utils parsePix', () => {
    pixUtilsParse(BCB_COMPOSITE);
  });
});

describe('QR build: Pix static with amount and info (pix-utils README input)', () => {
  bench('omnipos buildPix', () => {
    buildPix({
      key: 'nubank@thalesog.com',
      info: 'Gerado por Pix-Utils',
      merchantName: 'Thales Ogliari',
      merchantCity: 'Sao Paulo',
      amount: 1,
    });
  });
  bench('pix-utils createStaticPix().toBRCode()', () => {
    const pix = createStaticPix({
      merchantName: 'Thales Ogliari',
      merchantCity: 'Sao Paulo',
      pixKey: 'nubank@thalesog.com',
      infoAdicional: 'Gerado por Pix-Utils',
      transactionAmount: 1,
    });
    if ('toBRCode' in pix) pix.toBRCode();
  });
});

const SALE = {
  merchantId: '0010000244470001',
  terminalId: '20202033',
  deviceType: 'E',
  mcc: '1302',
  amount: '10.00',
  merchantName: 'Loja Teste',
  merchantCity: 'São Paulo',
  referenceLabel: 'ECOECBXmIkHMb2ZV',
  timestamp: '061021190813',
  modality: '0002',
  installments: 1,
  nsu: '000001',
} as const;
const SALE_CODE = buildPadraoq(SALE);

describe('QR padraoq current model (no peer)', () => {
  bench('omnipos buildPadraoq (builds, then checks by parsing)', () => {
    buildPadraoq(SALE);
  });
  bench('omnipos parsePadraoq', () => {
    parsePadraoq(SALE_CODE);
  });
});

import { field, type Layout } from './formats.js';

/**
 * Fixed-field layouts of the obsolete card commands (ABECS 2.12 §3.6, guilhermecabral05/abecs-rust
 * protocolo_abecs_2_12.md; the same sections in 2.20), shared as data: the driver encodes and decodes
 * them with drivers/pinpad/codec/layout.ts, the virtual pinpad reads them with its own wire/layout.ts.
 */
export const CLASSIC_CARD_LAYOUTS = {
  /** §3.6.1 GCR command: the fixed head (40 characters), then GCR_QTDAPP × A4 and GCR_CTLSON (optional N1). */
  GCR_REQUEST: [
    field('GCR_ACQIDXREQ', 'N2'),
    field('GCR_APPTYPREQ', 'N2'),
    field('GCR_AMOUNT', 'N12'),
    field('GCR_DATE', 'N6'),
    field('GCR_TIME', 'N6'),
    field('GCR_TABVER', 'A10'),
    field('GCR_QTDAPP', 'N2'),
  ],
  /** §3.6.1 response up to GCR_CARDEXP (307 characters). */
  GCR_RESPONSE: [
    field('GCR_CARDTYPE', 'N2'),
    field('GCR_STATCHIP', 'N1'),
    field('GCR_APPTYPE', 'N2'),
    field('GCR_ACQIDX', 'N2'),
    field('GCR_RECIDX', 'A2'),
    field('GCR_TRK1LEN', 'N2'),
    field('GCR_TRK1', 'A76'),
    field('GCR_TRK2LEN', 'N2'),
    field('GCR_TRK2', 'A37'),
    field('GCR_TRK3LEN', 'A3'),
    field('GCR_TRK3', 'A104'),
    field('GCR_PANLEN', 'N2'),
    field('GCR_PAN', 'A19'),
    field('GCR_PANSEQNO', 'N2'),
    field('GCR_APPLABEL', 'A16'),
    field('GCR_SRVCODE', 'N3'),
    field('GCR_CHNAME', 'A26'),
    field('GCR_CARDEXP', 'N6'),
  ],
  /** §3.6.3 GOC command block 1 (86 characters, then GOC_ACQPR). */
  GOC_REQUEST: [
    field('GOC_AMOUNT', 'N12'),
    field('GOC_CASHBACK', 'N12'),
    field('GOC_EXCLIST', 'N1'),
    field('GOC_CONNECT', 'N1'),
    field('GOC_RUF1', 'N1'),
    field('GOC_METHOD', 'N1'),
    field('GOC_KEYIDX', 'N2'),
    field('GOC_WKENC', 'H32'),
    field('GOC_RISKMAN', 'N1'),
    field('GOC_FLRLIMIT', 'H8'),
    field('GOC_TPBRS', 'N2'),
    field('GOC_TVBRS', 'H8'),
    field('GOC_MTPBRS', 'N2'),
    field('GOC_ACQPRLEN', 'N3'),
  ],
  /** §3.6.3 response up to GOC_EMVDTLEN (45 characters). */
  GOC_RESPONSE: [
    field('GOC_DECISION', 'N1'),
    field('GOC_SIGNAT', 'N1'),
    field('GOC_PINOFF', 'N1'),
    field('GOC_ERRPINOFF', 'N1'),
    field('GOC_PBLOCKED', 'N1'),
    field('GOC_PINONL', 'N1'),
    field('GOC_PINBLK', 'H16'),
    field('GOC_KSN', 'H20'),
    field('GOC_EMVDTLEN', 'N3'),
  ],
} as const satisfies Record<string, Layout>;

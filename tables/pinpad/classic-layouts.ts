import { field, type Layout } from './formats.js';

/**
 * Fixed-field ("classic") layouts of the commands that need no card, from ABECS 2.20
 * (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md), section named beside each.
 * Walked by one codec (drivers/pinpad/codec/layout.ts).
 */
export const CLASSIC_LAYOUTS = {
  /** §3.2.3 command: GIN 002 GIN_ACQIDX. */
  GIN_REQUEST: [field('GIN_ACQIDX', 'N2')],
  /** §3.2.3 response for GIN_ACQIDX = "00" (100 bytes): general information. */
  GIN_00: [
    field('GIN_MNAME', 'A20'),
    field('GIN_MODEL', 'A19'),
    field('GIN_CTLSSUP', 'A1'),
    field('GIN_SOVER', 'A20'),
    field('GIN_SPECVER', 'A4'),
    field('GIN_MANVER', 'A16'),
    field('GIN_SERNUM', 'A20'),
  ],
  /** §3.2.3 response for GIN_ACQIDX = "02" (42 bytes). */
  GIN_02: [
    field('GIN_ACQNAM', 'A8'),
    field('GIN_KRNLVER', 'A12'),
    field('GIN_APPVERS', 'A13'),
    field('GIN_SPECVER', 'A4'),
    field('GIN_RUF1', 'A3'),
    field('GIN_RUF2', 'N2'),
  ],
  /** §3.2.3 response for GIN_ACQIDX = "03" (42 bytes); GIN_DUKPT "T" = DUKPT:TDES:PIN key at slot 01. */
  GIN_03: [
    field('GIN_ACQNAM', 'A6'),
    field('GIN_KRNLVER', 'A4'),
    field('GIN_CTLSVER', 'A4'),
    field('GIN_MCTLSVER', 'A3'),
    field('GIN_VCTLSVER', 'A3'),
    field('GIN_APPVERS', 'A13'),
    field('GIN_SPECVER', 'A4'),
    field('GIN_RUF3', 'A2'),
    field('GIN_DUKPT', 'A1'),
    field('GIN_RUF2', 'N2'),
  ],
  /** §3.2.3 response for any other GIN_ACQIDX (42 bytes). */
  GIN_OTHER: [
    field('GIN_ACQNAME', 'A20'),
    field('GIN_APPVERS', 'A13'),
    field('GIN_SPECVER', 'A4'),
    field('GIN_RUF1', 'A3'),
    field('GIN_RUF2', 'N2'),
  ],
  /** §3.2.6 command: CLO 032 CLO_MSG (2 lines of 16). */
  CLO_REQUEST: [field('CLO_MSG', 'S32')],
  /** §3.3.5 command: DSP 032 DSP_MSG (2 lines of 16). */
  DSP_REQUEST: [field('DSP_MSG', 'S32')],
  /** §3.3.4 command: DEX LLL DEX_MSGLEN DEX_MSG [DEX_OPTIONS]. DEX_MSGLEN is the length of DEX_MSG. */
  DEX_REQUEST: [
    field('DEX_MSGLEN', 'N3'),
    field('DEX_MSG', 'S..160', { lengthFrom: 'DEX_MSGLEN' }),
    field('DEX_OPTIONS', 'N6', { optional: true }),
  ],
} as const satisfies Record<string, Layout>;

/** The GIN response layout for an acquirer index. */
export function ginLayout(acqIdx: number): Layout {
  if (acqIdx === 0) return CLASSIC_LAYOUTS.GIN_00;
  if (acqIdx === 2) return CLASSIC_LAYOUTS.GIN_02;
  if (acqIdx === 3) return CLASSIC_LAYOUTS.GIN_03;
  return CLASSIC_LAYOUTS.GIN_OTHER;
}

/** Where each published fact the printer tests check was read (cited per row). */
export const SRC = {
  /** Epson TM-U210 ESC/POS Application Programming Guide Ver. 10.01, p. 535: GS ( k Function 181 `1D 28 6B 03 00 31 51 m`, m = 48. */
  EPSON_FN181: 'office.manualsonline.com/manuals/mfg/epson/tmu210.html?p=535',
  /** Epson TM-T88III Programming Guide Ver. 10.01, p. 533: GS ( k Function 180 `1D 28 6B pL pH 31 50 30 d1..dk`, k = pL + pH×256 − 3. */
  EPSON_FN180: 'easymanua.ls/epson/tm-t88iii/manual/518843?p=533',
  /** Citizen CT-S2000 manual p. 215: GS ( k Function 165 `1D 28 6B 04 00 31 41 n1 n2` (n1 50 = model 2, n2 0) and Function 167 `… 03 00 31 43 n`. */
  CITIZEN_FN165_167: 'office.manualsonline.com/manuals/mfg/citizen_systems/ct_s2000.html?p=215',
  /** HPRT TP809 programming manual p. 41: Function 167 `1D 28 6B 03 00 31 43 n` and Function 169 `1D 28 6B 03 00 31 45 n` (48 L, 49 M, 50 Q, 51 H). */
  HPRT_FN167_169: 'manualshive.com/en/manual/hprt/tp809/tp809_programming-manual_2176425-47.html',
  /** Epson TM-T85 manual p. 5-43: GS V m (0/48 full, 1/49 partial), GS V m n (65 full, 66 partial after feeding). */
  EPSON_GS_V: 'office.manualsonline.com/manuals/mfg/epson/tmt85t85p_printer.html?p=101',
  /** NCR 7168 online help "Select Cut Mode and Cut Paper": 1D 56 m / 1D 56 m n, same values. */
  NCR_GS_V: 'onlinehelp.ncr.com/Retail/Printers/7168/HTML/Topics/CommandsIONNION/PrinterFunction/SelectCutMode.htm',
  /** Ithaca PcOS 80PLUS Programmer's Guide (Epson commands) p. 77: ESC t n (1B 74 n; 2 = PC850, 3 = PC860) and ESC ! n bits. */
  ITHACA_ESC_T: 'manualshive.com/en/manual/ithaca/pcos-series-80plus/2095564?page=87',
  /** Same guide pp. 97-99: GS h n (1D 68), GS w n (1D 77), GS k m n d1..dn (1D 6B, m 65..73; 67 EAN13, 73 CODE128). */
  ITHACA_GS_K: 'manualshive.com/en/manual/ithaca/pcos-series-80plus/2095564?page=109',
  /** Star/CBM-820 manual p. 64: ESC p m t1 t2 (1B 70), m 0/48 pin 2, 1/49 pin 5, on t1×2 ms, off t2×2 ms. */
  CBM_ESC_P: 'manualsdump.com/en/manuals/star_micronics-cbm-820/119136/75',
  /** Fenix-Imvico EPC1200 manual p. 40: GS v 0 m xL xH yL yH d1..dk (1D 76 30), x in bytes, y in dots, k = x × y. */
  GS_V_0: 'manualshive.com/ru/manual/fenix-imvico/epc1200-series/3988783?page=40',
  /** Epson TM-T88 Information Manual p. 1-35/1-36: DLE EOT n (10 04 n), n = 1 printer status, n = 2 off-line status bits. */
  EPSON_DLE_EOT_12: 'easymanua.ls/epson/tm-t88/manual/641564?p=45',
  /** Epson TM-T88III Specification (STANDARD) rev. B sheet 73: DLE EOT n = 3 error status, n = 4 paper sensor status bits. */
  EPSON_DLE_EOT_34: 'tv.manualsonline.com/manuals/mfg/epson/epson_tm_t88iii_c31c420012ha.html?p=84',
  /** Epson TM-U220 manual p. 84: GS r n (1D 72 n), paper sensor status: near end 03, paper end 0C, bits 4 and 7 fixed off. */
  EPSON_GS_R: 'easymanua.ls/epson/tm-u220a/manual?p=84',
  /** hardless_http_dialects docs: DLE EOT 1, 2, 4 replies of a printer out of paper are 0x1A, 0x32, 0x7E. */
  HARDLESS_PAPER_OUT: 'docs.rs/hardless-http-dialects/0.1.0/hardless_http_dialects/struct.PrinterStatus.html',
  /** Unicode's mapping tables of the IBM PC code pages. */
  UNICODE_CP860: 'unicode.org/Public/MAPPINGS/VENDORS/MICSFT/PC/CP860.TXT',
  UNICODE_CP850: 'unicode.org/Public/MAPPINGS/VENDORS/MICSFT/PC/CP850.TXT',
} as const;

export function hex(b: Uint8Array): string {
  return Buffer.from(b)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1 ');
}

/** The fast-check seed of this run (FC_SEED to replay), printed once per file that uses it. */
export function fcSeed(area: string): number {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(`fast-check seed (${area}): ${seed}`);
  return seed;
}

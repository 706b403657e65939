/**
 * How long the virtual pinpad takes to process each command before its answer (blocking commands
 * add the cardholder's own time on top). Named profiles:
 * - `fast`: no processing time (the default for tests and the demo);
 * - `ppc930`: a Gertec PPC930 as the public log of a production client shows it
 *   (guilhermecabral05/abecs-rust `transcao_completa_com_scope.txt`, timestamps to the second; the
 *   line of the command and of its answer beside each row). Table and media loads are not in that
 *   log: their times are estimates by size (flash writes), marked as such.
 */
export type TimingName = 'fast' | 'ppc930';
export const TIMING_NAMES: readonly TimingName[] = ['fast', 'ppc930'];

export interface TimingProfile {
  readonly name: TimingName;
  /** Processing time of command `id` whose clear PKTDATA is `data`, ms. */
  processingMs(id: string, data: Uint8Array): number;
}

const FAST: TimingProfile = { name: 'fast', processingMs: () => 0 };

/** Bytes after CMD_ID and the first N3 length: what a load command carries. */
const payload = (data: Uint8Array): number => Math.max(0, data.length - 6);

/** PPC930 times, ms. */
export const PPC930_MS = {
  /** Secure OPN (RSA key wrap): sent 17:36:18 (log line 2), answered 17:36:21 (line 41). */
  OPN_SECURE: 3000,
  /** Classic OPN: not in the log; a clear OPN does no cryptography. Estimate. */
  OPN_CLASSIC: 200,
  /** GIX without SPE_IDLIST (every "(†)" datum): 17:36:21 (line 76) → 17:36:29 (line 82). */
  GIX_ALL: 8000,
  /** GIX with SPE_IDLIST (1 to 5 ids): 17:36:29 → 17:36:29 (lines 148/155), 17:36:30 → 17:36:30 (162/168). */
  GIX_LIST: 400,
  /** DEX: 17:36:30 (172) → 17:36:31 (182). */
  DEX: 700,
  /** DSP: 17:36:46 → 17:36:46 (196/204), 17:36:50 → 17:36:51 (263/271). */
  DSP: 400,
  /** GTK: 17:36:52 → 17:36:52 (284/291). */
  GTK: 400,
  /** EBX: 17:36:52 → 17:36:53 (296/305), 17:36:56 → 17:36:56 (376/385). */
  EBX: 600,
  /** GCX after the card is at the reader (CEX saw it at 17:36:46): 17:36:47 (227) → NTM 17:36:49 (237) → 17:36:50 (242). */
  GCX: 2500,
  /** GOX (contactless, no PIN): 17:36:53 (322) → 17:36:55 (339). */
  GOX: 2000,
  /** FCX: 17:36:57 (402) → 17:36:58 (413). */
  FCX: 1000,
  /** Any other command: not in the log. Estimate, like a DSP. */
  OTHER: 300,
  /** TLR: estimate, a flash write: base plus per byte of records. */
  TLR_BASE: 250,
  TLR_PER_BYTE: 0.5,
  /** MLR: estimate, a flash write: base plus per byte of file. */
  MLR_BASE: 100,
  MLR_PER_BYTE: 0.2,
  /** TLE and MLE: estimate, committing the load. */
  COMMIT: 800,
} as const;

const PPC930: TimingProfile = {
  name: 'ppc930',
  processingMs(id, data) {
    const t = PPC930_MS;
    switch (id) {
      case 'OPN':
        return data.length > 6 ? t.OPN_SECURE : t.OPN_CLASSIC;
      case 'GIX':
        return data.length > 6 ? t.GIX_LIST : t.GIX_ALL;
      case 'DEX':
      case 'DSP':
      case 'GTK':
      case 'EBX':
      case 'GCX':
      case 'GOX':
      case 'FCX':
        return t[id];
      case 'TLR':
        return Math.round(t.TLR_BASE + t.TLR_PER_BYTE * payload(data));
      case 'MLR':
        return Math.round(t.MLR_BASE + t.MLR_PER_BYTE * payload(data));
      case 'TLE':
      case 'MLE':
        return t.COMMIT;
      default:
        return t.OTHER;
    }
  },
};

const BY_NAME: Record<TimingName, TimingProfile> = { fast: FAST, ppc930: PPC930 };

/** The bounds of a timing scale: a tenth of the times is as fast as a test needs, ten times as slow as one bears. */
export const TIMING_SCALE = { min: 0.01, max: 10 } as const;

/**
 * The named timing profile (default `fast`), each time multiplied by `scale` (default 1, the real
 * times). A scaled profile keeps the real one's proportions (the full GIX 20 times a listed one, the
 * secure OPN 15 times a classic one): the test suite runs most end-to-end tests at a tenth of the
 * PPC930's times and a named few at the real ones (docs/pinpad.md).
 */
export function timingFor(name: TimingName | undefined, scale = 1): TimingProfile {
  const base = BY_NAME[name ?? 'fast'];
  if (!(scale >= TIMING_SCALE.min && scale <= TIMING_SCALE.max))
    throw new RangeError(`timing scale ${scale}: expected ${TIMING_SCALE.min} to ${TIMING_SCALE.max}`);
  if (scale === 1) return base;
  return { name: base.name, processingMs: (id, data) => Math.round(base.processingMs(id, data) * scale) };
}

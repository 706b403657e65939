/**
 * The commands of ABECS 2.20 chapter 3 as the virtual pinpad knows them: the Obsoleto, Blocante and
 * Abecs boxes of each chapter's table (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md l. 2670,
 * 3915, 5890, 6773, 7237, 8290; "x" ticked, "." empty), read apart from the driver's
 * tables/pinpad/commands.ts. OPN's row is the secure one (l. 2676); the classic OPN (l. 2673) is the
 * same command answered the old way.
 */
const TABLE = `
OPN 3.2.2 . . .
GIN 3.2.3 x . .
GIX 3.2.4 . . x
DWK 3.2.5 x . .
CLO 3.2.6 . . .
CLX 3.2.7 . . x
CEX 3.3.1 . x x
CHP 3.3.2 . x .
CKE 3.3.3 x x .
DEX 3.3.4 . . .
DSP 3.3.5 . . .
EBX 3.3.6 . . x
ENB 3.3.7 x . .
GCD 3.3.8 . x x
GDU 3.3.9 x . .
GKY 3.3.10 x x .
GPN 3.3.11 . x .
GTK 3.3.12 . . x
MNU 3.3.13 . x x
RMC 3.3.14 . x .
MLI 3.4.1 . . x
MLR 3.4.2 . . x
MLE 3.4.3 . . x
LMF 3.4.4 . . x
DMF 3.4.5 . . x
DSI 3.4.6 . . x
GTS 3.5.1 x . .
TLI 3.5.2 . . .
TLR 3.5.3 . . .
TLE 3.5.4 . . .
GCR 3.6.1 x x .
CNG 3.6.2 x . .
GOC 3.6.3 x x .
FNC 3.6.4 x . .
GCX 3.7.1 . x x
GED 3.7.2 . . x
GOX 3.7.3 . x x
FCX 3.7.4 . x x
`;

/**
 * What a command does to the secure session, or needs of it (§3.2.2, §3.2.5, §5.2.2, §6.3.2, §6.4.1):
 * `opens` OPN — taken in any state, only in clear, ends any session; `closes` CLO, CLX — their
 * answers go out in clear; `clear` DWK — refused inside a session (§3.2.5 "não é aceito pelo pinpad
 * se o SPE estiver utilizando o método Comunicação Segura"); `secure` an Abecs command — only inside
 * one; `none` any other — no OPN needed first, encrypted when a session is up.
 */
export type SimSessionRule = 'opens' | 'closes' | 'clear' | 'secure' | 'none';

export interface SimCommand {
  readonly section: string;
  readonly obsolete: boolean;
  readonly blocking: boolean;
  readonly abecs: boolean;
  readonly session: SimSessionRule;
}

const RULES: Readonly<Record<string, SimSessionRule>> = { OPN: 'opens', CLO: 'closes', CLX: 'closes', DWK: 'clear' };

export const SIM_COMMANDS: ReadonlyMap<string, SimCommand> = new Map(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const m = /^([A-Z]{3}) (3\.\d\.\d+) ([x.]) ([x.]) ([x.])$/.exec(line);
      if (!m) throw new Error(`spec/commands: cannot read "${line}"`);
      const abecs = m[5] === 'x';
      const session = RULES[m[1]!] ?? (abecs ? 'secure' : 'none');
      return [m[1]!, { section: m[2]!, obsolete: m[3] === 'x', blocking: m[4] === 'x', abecs, session }] as const;
    }),
);

/** The session rule of a command id; undefined for an id the specification does not list. */
export const sessionRule = (id: string): SimSessionRule | undefined => SIM_COMMANDS.get(id)?.session;

/** The fixed-field commands, whose PKTDATA is at most 1024 (§2.2.1): every one not ticked Abecs. */
export const FIXED_FIELD_COMMANDS: ReadonlySet<string> = new Set(
  [...SIM_COMMANDS].filter(([, c]) => !c.abecs).map(([id]) => id),
);

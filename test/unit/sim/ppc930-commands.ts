/**
 * Commands a production terminal sent to a real Gertec PPC930, as captured in the public log
 * guilhermecabral05/abecs-rust `transcao_completa_com_scope.txt` (11/11/2025 17:36; the line of the
 * `<ENV>` packet beside each), whole packets from SYN to the CRC. The pinpad ACKed and answered
 * every one with status 000, so a strict virtual pinpad must take them too. The log prints each
 * packet before the DC3 substitution (PARIDs 0013h, 0016h, 0017h appear raw) with the CRC the
 * client sent, which matches the unescaped data (checked in the tests): `onTheWire` escapes them.
 * (The GTK of line 284 is left out: its logged CRC 0687h does not match its data.)
 */
export const PPC930_COMMANDS = {
  /** line 76: GIX without SPE_IDLIST. */
  GIX_ALL: '16474958303030177F4A',
  /** line 148: GIX SPE_IDLIST 9001 9101 9105 9300 9304 9306. */
  GIX_LIST: '164749583031360001000C90019101910593009304930617F79C',
  /** line 172: DEX with CR line breaks (DEX_MSGLEN 067, no DEX_OPTIONS). */
  DEX: '1644455830373030363756414C4F523A202020202020202020310D202020202020202020202020202020200D4150524F58494D452C20494E534952410D4F55205041535345202043415254414F1762B7',
  /** line 185: CEX SPE_CEXOPT "111100". */
  CEX: '164345583031300006000631313131303017F4FD',
  /** line 227: GCX with SPE_TRNTYPE (as "02"…), amount, date, time, GCXOPT. */
  GCX: '164743583036320012000830323031303230340013000C3030303030303030303030310015000632353131313100160006313733363437001700053130303030002100010017AF70',
  /** line 296: EBX (SPE_MTHDDAT "10", SPE_WKENC 16 bytes). */
  EBX: '16454258303434000F00080C5A407BF1F826DC000300023130000900023032000A00102CC30CF882FB8877AA6AD6353BE44F3217A85B',
  /** line 322: GOX with SPE_MTHDPIN "3" and an 8-byte SPE_WKENC (B16 in 2.20: unneeded with DUKPT, ignored by the PPC930). */
  GOX: '16474F583136380010000230320013000C3030303030303030303030310014000C3030303030303030303030300018000530303130300002000133000900023032000A00080000000000000000001B0020522420302C30312020202020202020200D53454E4841204352454449543A2020001A000A00000000000000000000000400279F269F279F109F379F36959A9C9F025F2A829F1A9F039F349F06509F335F249F0B5F345A579F6E00210001001732E7',
  /** line 402: FCX SPE_FCXOPT "0000", SPE_ARC "00", SPE_EMVDATA 8A/89, SPE_TAGLIST. */
  FCX: '164643583037330019000430303030001C000230300005000C8A0230308906303632353031000400279F269F279F109F379F36959A9C9F025F2A829F1A9F039F349F06509F335F249F0B5F345A579F6E170D93',
} as const;

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
/** PKTDATA of a logged packet (between SYN and ETB). */
export const pktdata = (hex: string): Uint8Array => bytes(hex).subarray(1, -3);
/** The CRC the client sent (the two bytes after ETB). */
export const loggedCrc = (hex: string): number => (bytes(hex).at(-2)! << 8) | bytes(hex).at(-1)!;
/** The packet as it went on the wire: DC3, SYN and ETB in PKTDATA as DC3 + byte + 20h (§2.2.1), the logged CRC. */
export function onTheWire(hex: string): Uint8Array {
  const out = [0x16];
  for (const b of pktdata(hex)) out.push(...(b === 0x13 || b === 0x16 || b === 0x17 ? [0x13, b + 0x20] : [b]));
  const crc = loggedCrc(hex);
  out.push(0x17, crc >> 8, crc & 0xff);
  return Uint8Array.from(out);
}

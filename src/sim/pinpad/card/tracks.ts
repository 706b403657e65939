/**
 * Incomplete tracks and PAN masking as the pinpad produces them (ABECS 2.20 §5.4.1, §6.3.4.1),
 * written for the virtual pinpad.
 */

/** §6.3.4.1 track 2: up to the 7th character after the first '=' (3Dh); without one, the first 19. */
export function partialTrack2(track2: string): string {
  const eq = track2.indexOf('=');
  return eq >= 0 ? track2.slice(0, eq + 8) : track2.slice(0, 19);
}

/** §6.3.4.1 track 1: up to the 7th character after the second '^' (5Eh); without it, the first 19. */
export function partialTrack1(track1: string): string {
  const a = track1.indexOf('^');
  const b = a >= 0 ? track1.indexOf('^', a + 1) : -1;
  return b >= 0 ? track1.slice(0, b + 8) : track1.slice(0, 19);
}

/**
 * SPE_PANMASK "eedd" (§3.1.3.1, N4; §5.4.1): the PAN is the first run of digits at the start of the
 * field (after a track 1 format letter), spaces inside it ignored; its first "ee" and last "dd"
 * digits stay open and the others become '*'; when ee + dd reach the PAN's length nothing is
 * masked. Without SPE_PANMASK there is no masking (§3.3.1). Only a well-formed mask reaches here:
 * the parameter reader refuses any other with ST_INVPARM, so a bad mask never yields a clear PAN.
 */
export function maskPan(field: string, mask: string | undefined): string {
  if (mask === undefined) return field;
  if (!/^\d{4}$/.test(mask)) throw new RangeError('SPE_PANMASK must be 4 digits');
  const left = Number(mask.slice(0, 2));
  const right = Number(mask.slice(2));
  const positions: number[] = [];
  for (let i = /^[A-Za-z]/.test(field) ? 1 : 0; i < field.length; i++) {
    const c = field[i]!;
    if (c >= '0' && c <= '9') positions.push(i);
    else if (c !== ' ') break;
  }
  if (left + right >= positions.length) return field;
  const chars = [...field];
  for (const i of positions.slice(left, positions.length - right)) chars[i] = '*';
  return chars.join('');
}

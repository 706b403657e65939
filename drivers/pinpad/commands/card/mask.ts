/**
 * PAN masking of the incomplete tracks and PP_PAN (ABECS 2.20 §5.4.1): the PAN is the first run of
 * digits at the start of the field (spaces inside it ignored, a leading format letter skipped);
 * `left` and `right` digits stay open and the rest become '*'. When left + right reach the PAN's
 * length nothing is masked. The virtual pinpad masks with it, and the driver masks again whatever
 * the pinpad returns, so a pinpad that ignored SPE_PANMASK still never hands the terminal a full PAN.
 */
export function maskPanField(field: string, left: number, right: number): string {
  let start = 0;
  if (/^[A-Za-z]/.test(field)) start = 1; // track 1 format code
  const positions: number[] = [];
  for (let i = start; i < field.length; i++) {
    const c = field[i]!;
    if (c >= '0' && c <= '9') positions.push(i);
    else if (c === ' ' || c === '*') {
      if (c === '*') positions.push(i);
    } else break;
  }
  if (left + right >= positions.length) return field;
  const chars = [...field];
  positions.slice(left, positions.length - right).forEach((i) => (chars[i] = '*'));
  return chars.join('');
}

/** Incomplete track 2 (§5.4.1): up to seven characters after '=', else the first 19. */
export function incompleteTrack2(track2: string): string {
  const eq = track2.indexOf('=');
  return eq >= 0 ? track2.slice(0, eq + 8) : track2.slice(0, 19);
}

/** Incomplete track 1 (§5.4.1): seven characters after the second '^', else the first 19. */
export function incompleteTrack1(track1: string): string {
  const first = track1.indexOf('^');
  const second = first >= 0 ? track1.indexOf('^', first + 1) : -1;
  return second >= 0 ? track1.slice(0, second + 8) : track1.slice(0, 19);
}

/** True when `s` holds a run of 13 or more digits (a clear PAN): the driver's last guard. */
export function holdsClearPan(s: string): boolean {
  return /\d{13,}/.test(s.replace(/ /g, ''));
}

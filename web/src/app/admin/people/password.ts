const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '!#$%&*+-=?@^_';

/** A uniformly random integer below `n`, from the browser's CSPRNG (rejection sampling: no modulo bias). */
function randomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const buf = new Uint32Array(1);
  do crypto.getRandomValues(buf);
  while (buf[0] >= limit);
  return buf[0] % n;
}

const pick = (set: string) => set[randomBelow(set.length)];

/**
 * A password for a new user or a reset, as Metabase's admin makes one when no email is set up: 14 random characters
 * that pass the strongest complexity rule (2 lower case, 2 upper case, a digit, a special character; look-alikes
 * such as l, 1, O and 0 left out, since it is read off the screen).
 */
export function generatePassword(length = 14): string {
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  const chars = [pick(LOWER), pick(LOWER), pick(UPPER), pick(UPPER), pick(DIGITS), pick(SPECIAL)];
  while (chars.length < length) chars.push(pick(all));
  // Fisher-Yates, so the required characters are not always first.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

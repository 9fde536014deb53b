/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), seeded through splitmix32. Only integer ops and
 * IEEE-exact arithmetic, so a seed gives the same numbers on every machine, unlike Math.random.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `stream` names an independent sequence, so each table's data does not depend on the others'. */
  constructor(seed: number, stream: string) {
    let state = (seed ^ fnv1a(stream)) | 0;
    const splitmix32 = () => {
      state = (state + 0x9e3779b9) | 0;
      let t = state ^ (state >>> 16);
      t = Math.imul(t, 0x21f0aaad);
      t ^= t >>> 15;
      t = Math.imul(t, 0x735a2d97);
      return (t ^ (t >>> 15)) >>> 0;
    };
    this.a = splitmix32();
    this.b = splitmix32();
    this.c = splitmix32();
    this.d = splitmix32();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform unsigned 32-bit integer. */
  next(): number {
    const t0 = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const t = (t0 + this.d) | 0;
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Index into a table of cumulative weights (ascending, last = total), optionally within its first `limit`. */
  weighted(cumulative: ArrayLike<number>, limit = cumulative.length): number {
    const target = this.float() * cumulative[limit - 1];
    let lo = 0;
    let hi = limit - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.next().toString(16).padStart(8, '0');
    return out.slice(0, length);
  }
}

export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => (out[i] = sum += w));
  return out;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

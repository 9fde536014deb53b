import { likePrefix, prefixRange } from './search-range';

const inRange = (term: string, [lo, hi]: [string, string | null]) =>
  Buffer.compare(Buffer.from(term), Buffer.from(lo)) >= 0 && (hi === null || Buffer.compare(Buffer.from(term), Buffer.from(hi)) < 0);

describe('prefixRange', () => {
  it('holds exactly the terms that start with the prefix, in byte order', () => {
    const r = prefixRange('ord');
    expect(r).toEqual(['ord', 'ore']);
    for (const t of ['ord', 'order', 'ordz', 'ord\u00e9', 'ord\uffff', 'ord😀']) expect(inRange(t, r)).toBe(true);
    for (const t of ['orc', 'ore', 'or', 'p', 'Ord']) expect(inRange(t, r)).toBe(false);
  });

  it('handles letters beyond ASCII and the ends of the code space', () => {
    expect(inRange('über', prefixRange('üb'))).toBe(true);
    expect(inRange('üc', prefixRange('üb'))).toBe(false);
    expect(prefixRange('a\ud7ff')).toEqual(['a\ud7ff', 'a\ue000']);
    expect(prefixRange('a\u{10ffff}')).toEqual(['a\u{10ffff}', 'b']);
    expect(prefixRange('\u{10ffff}')).toEqual(['\u{10ffff}', null]);
  });
});

describe('likePrefix', () => {
  it('escapes LIKE wildcards', () => {
    expect(likePrefix('50%_a\\b')).toBe('50\\%\\_a\\\\b%');
  });
});

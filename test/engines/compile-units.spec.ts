import { resolveBinning } from '../../src/query-engine/compile/binning';
import { QueryCompileError } from '../../src/query-engine/compile/contract';
import { Binder, literalNumber } from '../../src/query-engine/compile/params';
import { addWall, parseDateLiteral, truncateWall, wallFromDate, wallText } from '../../src/query-engine/compile/temporal';
import type { FieldMeta } from '../../src/query-engine/metadata';

const field = (min: number, max: number) => ({ id: 1, fingerprint: { type: { 'type/Number': { min, max } } } }) as unknown as FieldMeta;

describe('binning (Metabase nicer-breakout)', () => {
  it('picks a pleasing width and rounds the bounds out to whole bins', () => {
    expect(resolveBinning({ strategy: 'num-bins', 'num-bins': 10 }, field(12.5, 159.35), null, 'breakout')).toEqual({
      strategy: 'num-bins',
      binWidth: 20,
      numBins: 10,
      minValue: 0,
      maxValue: 160,
    });
    expect(resolveBinning({ strategy: 'num-bins', 'num-bins': 8 }, field(0, 5), null, 'breakout')).toMatchObject({
      binWidth: 0.75,
      minValue: 0,
      maxValue: 5.25,
    });
    expect(resolveBinning({ strategy: 'bin-width', 'bin-width': 10 }, field(15.69, 98.82), null, 'breakout')).toEqual({
      strategy: 'bin-width',
      binWidth: 10,
      numBins: 9,
      minValue: 10,
      maxValue: 100,
    });
  });

  it('defaults to 8 bins, and to 1 degree for coordinates', () => {
    expect(resolveBinning({ strategy: 'default' }, field(0, 100), null, 'breakout')).toMatchObject({
      strategy: 'default',
      numBins: 8,
      binWidth: 12.5,
    });
    expect(resolveBinning({ strategy: 'default' }, field(25.78, 70.64), 'type/Latitude', 'breakout')).toMatchObject({
      binWidth: 1,
      minValue: 25,
      maxValue: 71,
    });
  });

  it('uses min-value/max-value from the clause, and errors without any range', () => {
    expect(
      resolveBinning({ strategy: 'bin-width', 'bin-width': 5, 'min-value': 1, 'max-value': 9 }, undefined, null, 'breakout'),
    ).toMatchObject({ minValue: 0, maxValue: 10 });
    expect(() => resolveBinning({ strategy: 'default' }, { id: 7, fingerprint: null } as unknown as FieldMeta, null, 'breakout')).toThrow(
      /field 7 .*no fingerprint/,
    );
    expect(() => resolveBinning({ strategy: 'bin-width', 'bin-width': -1 }, field(0, 1), null, 'breakout')).toThrow(QueryCompileError);
  });
});

describe('calendar arithmetic for date filters', () => {
  const w = (s: string) => parseDateLiteral(s)!.wall;
  it('truncates with Sunday weeks and quarters', () => {
    expect(wallText(truncateWall(w('2025-06-18T10:11:12'), 'week'))).toBe('2025-06-15 00:00:00');
    expect(wallText(truncateWall(w('2025-06-15'), 'week'))).toBe('2025-06-15 00:00:00');
    expect(wallText(truncateWall(w('2025-08-18T10:11:12'), 'quarter'))).toBe('2025-07-01 00:00:00');
    expect(wallText(truncateWall(w('2025-08-18T10:11:12'), 'minute'))).toBe('2025-08-18 10:11:00');
  });

  it('adds months clamping to the last day, and crosses years', () => {
    expect(wallText(addWall(w('2024-01-31'), 1, 'month'), true)).toBe('2024-02-29');
    expect(wallText(addWall(w('2024-11-15'), 3, 'month'), true)).toBe('2025-02-15');
    expect(wallText(addWall(w('2024-01-15'), -1, 'quarter'), true)).toBe('2023-10-15');
    expect(wallText(addWall(w('2024-12-31T23:00:00'), 2, 'hour'))).toBe('2025-01-01 01:00:00');
  });

  it('reads ISO literals, with offsets converted to UTC, and refuses the rest', () => {
    expect(parseDateLiteral('2024-05-01')).toEqual({ wall: { y: 2024, mo: 5, d: 1, h: 0, mi: 0, s: 0 }, hasTime: false });
    expect(wallText(w('2024-05-01T02:00:00+03:00'))).toBe('2024-04-30 23:00:00');
    expect(wallText(w('2024-05-01 10:30'))).toBe('2024-05-01 10:30:00');
    for (const bad of ['2024-13-01', 'yesterday', "2024-01-01'; --", '2024-01-01T25:00:00']) expect(parseDateLiteral(bad)).toBeNull();
  });

  it('reads the wall clock of a zone', () => {
    expect(wallText(wallFromDate(new Date('2025-01-15T03:30:00Z'), 'America/New_York'))).toBe('2025-01-14 22:30:00');
    expect(wallText(wallFromDate(new Date('2025-07-15T03:30:00Z'), 'America/New_York'))).toBe('2025-07-14 23:30:00');
  });
});

describe('bound values', () => {
  it('lists parameters in the order their markers appear, repeated ones too', () => {
    const b = new Binder();
    const a = b.bind('a');
    const c = b.bind(3);
    expect(b.finish(`${c} = x AND ${a} = y OR ${c} < z`)).toEqual({ sql: '? = x AND ? = y OR ? < z', params: [3, 'a', 3] });
  });

  it('accepts only plain values', () => {
    const b = new Binder();
    for (const bad of [{}, [1], Number.NaN, Infinity, undefined, () => 1]) expect(() => b.bind(bad)).toThrow(QueryCompileError);
  });

  it('writes only validated numbers into SQL text', () => {
    expect(literalNumber(12.5, 'x')).toBe('12.5');
    expect(literalNumber(-3, 'x', undefined, true)).toBe('-3');
    expect(literalNumber(1e-7, 'x')).toBe('0.0000001');
    for (const bad of ['1; DROP', Number.NaN, Infinity, null, '5']) expect(() => literalNumber(bad, 'x')).toThrow(QueryCompileError);
    expect(() => literalNumber(1.5, 'x', 'limit', true)).toThrow('x must be a whole number, got 1.5 in "limit".');
  });
});

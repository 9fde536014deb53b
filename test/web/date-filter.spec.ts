import { describeDate, modeOf, modesOf, parseWindow, rangeOf, rangeValue, windowValue } from '../../web/src/app/components/date-filter';

/** The date picker's strings: what it builds is what the server's date parameters read (date-params.ts). */
describe('date filter strings', () => {
  it('tells the mode a value was built in, and null for what the picker does not build', () => {
    expect(
      [
        '2024-01-31',
        '2024-01-01~2024-01-31',
        '~2024-01-31',
        '2024-01-01~',
        '2024-01',
        'Q3-2024',
        'past30days',
        'next2weeks~',
        'thisweek',
      ].map(modeOf),
    ).toEqual(['specific', 'range', 'range', 'range', 'month', 'quarter', 'relative', 'relative', 'relative']);
    expect(['', '~', 'exclude-days-Mon', 'past0days', '2024-1-5', null].map(modeOf)).toEqual([null, null, null, null, null, null]);
  });

  it('builds and reads ranges and relative windows both ways', () => {
    expect(rangeValue('2024-01-01', '2024-01-31')).toBe('2024-01-01~2024-01-31');
    expect(rangeValue(null, '2024-01-31')).toBe('~2024-01-31');
    expect(rangeValue(null, null)).toBeNull();
    expect(rangeOf('2024-01-01~')).toEqual({ from: '2024-01-01', to: null });
    const w = { direction: 'next' as const, n: 3, unit: 'month' as const, includeCurrent: true };
    expect(windowValue(w)).toBe('next3months~');
    expect(parseWindow(windowValue(w))).toEqual(w);
  });

  it('says each value in words', () => {
    expect(describeDate('2024-01-31')).toBe('Jan 31, 2024');
    expect(describeDate('2024-01-01~2024-01-31')).toBe('Jan 1, 2024 – Jan 31, 2024');
    expect(describeDate('~2024-01-31')).toBe('On or before Jan 31, 2024');
    expect(describeDate('2024-02')).toBe('February 2024');
    expect(describeDate('Q1-2024')).toBe('Q1 2024');
    expect(describeDate('past30days')).toBe('Past 30 days');
    expect(describeDate('past1weeks~')).toBe('Past 1 week, including the current one');
    expect(describeDate('exclude-days-Mon')).toBe('exclude-days-Mon');
  });

  it('offers the modes of each filter type', () => {
    expect(modesOf('date/single')).toEqual(['specific']);
    expect(modesOf('date/month-year')).toEqual(['month']);
    expect(modesOf('date/all-options')).toHaveLength(5);
  });
});

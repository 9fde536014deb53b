import type { Resolved } from './types';
import { finestTemporal, hasWindow } from './window';

const breakout = (type: string, unit?: string) =>
  ({ sql: 'x', type, unit, col: {}, direct: false, raw: { sql: 'x', type } }) as unknown as Resolved;

describe('the window of offset', () => {
  it('is ordered by the leftmost finest temporal breakout, an unbucketed date or time the finest', () => {
    expect(
      finestTemporal([
        breakout('type/Text'),
        breakout('type/DateTime', 'month'),
        breakout('type/DateTime', 'day'),
        breakout('type/Date', 'day'),
      ]),
    ).toBe(2);
    expect(finestTemporal([breakout('type/DateTime', 'year'), breakout('type/DateTime')])).toBe(1);
    expect(finestTemporal([breakout('type/Text'), breakout('type/Integer')])).toBeUndefined();
    // An extraction (month of year) is no granularity: not a time line to look back along.
    expect(finestTemporal([breakout('type/Integer', 'month-of-year'), breakout('type/Text')])).toBeUndefined();
  });

  it('leaves windows out of its order', () => {
    expect(hasWindow(['offset', {}, ['count'], -1])).toBe(true);
    expect(hasWindow(['-', ['count'], ['offset', {}, ['count'], -1]])).toBe(true);
    expect(hasWindow(['aggregation-options', ['cum-sum', ['field', 1, null]], { name: 'x' }])).toBe(true);
    expect(hasWindow(['sum', ['field', 1, null]])).toBe(false);
  });
});

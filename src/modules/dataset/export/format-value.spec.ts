import { formatExtraction, formatTemporal, formatTime, formatValue, parseTemporal } from './format-value';

const dateTime = { base_type: 'type/DateTime' };
const date = { base_type: 'type/Date' };

describe('export value formatting', () => {
  it('reads the wall-clock parts of ISO dates and date-times, with or without a zone', () => {
    expect(parseTemporal('2024-05-01T10:15:30.123Z')).toEqual({
      year: 2024,
      month: 5,
      day: 1,
      hour: 10,
      minute: 15,
      second: 30,
      millisecond: 123,
      hasTime: true,
    });
    expect(parseTemporal('2024-05-01 10:15:00+02:00')).toMatchObject({ hour: 10, hasTime: true });
    expect(parseTemporal('2024-05-01')).toMatchObject({ day: 1, hasTime: false });
    expect(parseTemporal('May 1')).toBeNull();
  });

  it('writes date-times and dates readably, following the unit', () => {
    expect(formatTemporal('2024-05-01T10:15:00', dateTime)).toBe('May 1, 2024, 10:15 AM');
    expect(formatTemporal('2024-05-01T22:05:00Z', dateTime)).toBe('May 1, 2024, 10:05 PM');
    expect(formatTemporal('2024-05-01T00:00:00', dateTime)).toBe('May 1, 2024, 12:00 AM');
    expect(formatTemporal('2024-05-01', date)).toBe('May 1, 2024');
    expect(formatTemporal('2024-05-01T00:00:00', date)).toBe('May 1, 2024');
    expect(formatTemporal('2024-05-01T00:00:00', { ...dateTime, unit: 'day' })).toBe('May 1, 2024');
    expect(formatTemporal('2024-04-28T00:00:00', { ...dateTime, unit: 'week' })).toBe('April 28, 2024 - May 4, 2024');
    expect(formatTemporal('2024-05-01T00:00:00', { ...dateTime, unit: 'month' })).toBe('May, 2024');
    expect(formatTemporal('2024-04-01T00:00:00', { ...dateTime, unit: 'quarter' })).toBe('Q2 - 2024');
    expect(formatTemporal('2024-01-01T00:00:00', { ...dateTime, unit: 'year' })).toBe('2024');
    expect(formatTemporal('2024-05-01T13:00:00', { ...dateTime, unit: 'hour' })).toBe('May 1, 2024, 1:00 PM');
  });

  it('names extracted weekdays, months, quarters and hours, and formats times of day', () => {
    expect(formatExtraction(1, 'day-of-week')).toBe('Sunday');
    expect(formatExtraction(5, 'month-of-year')).toBe('May');
    expect(formatExtraction(3, 'quarter-of-year')).toBe('Q3');
    expect(formatExtraction(0, 'hour-of-day')).toBe('12 AM');
    expect(formatExtraction(15, 'hour-of-day')).toBe('3 PM');
    expect(formatExtraction(17, 'day-of-month')).toBeNull();
    expect(formatTime('09:30:00')).toBe('9:30 AM');
  });

  it('groups numbers with at most 2 decimals, leaves text and nulls alone, and everything raw without format_rows', () => {
    expect(formatValue(1234.567, { base_type: 'type/Float' }, true)).toBe('1,234.57');
    expect(formatValue(1234, { base_type: 'type/Integer' }, true)).toBe('1,234');
    expect(formatValue(12345, { base_type: 'type/Integer', semantic_type: 'type/PK' }, true)).toBe('12345');
    expect(formatValue(1234.5, { base_type: 'type/Float' }, false)).toBe(1234.5);
    expect(formatValue('Gizmo', { base_type: 'type/Text' }, true)).toBe('Gizmo');
    expect(formatValue(null, dateTime, true)).toBeNull();
    expect(formatValue('2024-05-01T10:15:00', dateTime, true)).toBe('May 1, 2024, 10:15 AM');
    expect(formatValue('2024-05-01T10:15:00', dateTime, false)).toBe('2024-05-01T10:15:00');
    expect(formatValue(2, { base_type: 'type/Integer', unit: 'day-of-week' }, false)).toBe(2);
    expect(formatValue(2, { base_type: 'type/Integer', unit: 'day-of-week' }, true)).toBe('Monday');
    expect(formatValue('not a date', dateTime, true)).toBe('not a date');
  });
});

import { columnTitle, formatDate, formatNumber, formatValue, keyMatches } from '../../web/src/visualizations/format';
import type { Column } from '../../web/src/visualizations/types';

const num = (name: string, extra: Partial<Column> = {}): Column => ({ name, display_name: name, base_type: 'type/Float', ...extra });
const date = (unit?: string): Column => ({ name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime', unit });

describe('visualization number formatting', () => {
  it('groups thousands and keeps up to 2 decimals by default', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(0.1234567)).toBe('0.123457');
  });

  it('follows decimals, scale, prefix and suffix', () => {
    expect(formatNumber(12.5, { decimals: 0 })).toBe('13');
    expect(formatNumber(0.5, { scale: 100, suffix: ' pts', prefix: '~' })).toBe('~50 pts');
  });

  it('formats percent, currency and scientific styles', () => {
    expect(formatNumber(0.256, { number_style: 'percent' })).toBe('25.6%');
    expect(formatNumber(1234.5, { number_style: 'currency', currency: 'USD' })).toBe('$1,234.50');
    expect(formatNumber(1234.5, { number_style: 'currency', currency: 'EUR', currency_style: 'code' })).toMatch(/^EUR\s1,234\.50$/);
    expect(formatNumber(123456, { number_style: 'scientific' })).toBe('1.23456e+5');
  });

  it('uses the separators setting', () => {
    expect(formatNumber(1234.5, { number_separators: ',.' })).toBe('1.234,5');
    expect(formatNumber(1234.5, { number_separators: '.' })).toBe('1234.5');
  });

  it('writes compact numbers for axes', () => {
    expect(formatNumber(1500, { compact: true })).toBe('1.5k');
    expect(formatNumber(2_300_000, { compact: true, number_style: 'currency', currency: 'USD' })).toBe('$2.3M');
    expect(formatNumber(0, { compact: true })).toBe('0');
    expect(formatNumber(12.5, { compact: true })).toBe('12.5');
  });
});

describe('visualization date formatting', () => {
  it('formats by temporal unit without shifting the time zone', () => {
    expect(formatDate('2024-03-01T00:00:00Z', 'month')).toBe('March, 2024');
    expect(formatDate('2024-04-01T00:00:00-07:00', 'quarter')).toBe('Q2 2024');
    expect(formatDate('2024-01-01T00:00:00Z', 'year')).toBe('2024');
    expect(formatDate('2024-01-07', 'week')).toBe('January 7, 2024 – January 13, 2024');
    expect(formatDate('2024-05-09T15:30:00', 'hour')).toBe('May 9, 2024, 3:30 PM');
  });

  it('names extracted units', () => {
    expect(formatDate(1, 'day-of-week')).toBe('Sunday');
    expect(formatDate(12, 'month-of-year')).toBe('December');
    expect(formatDate(3, 'quarter-of-year')).toBe('Q3');
  });

  it('follows date_style, date_abbreviate and time_style', () => {
    expect(formatDate('2024-05-09T15:30:00', undefined, { date_style: 'M/D/YYYY', time_style: 'HH:mm' })).toBe('5/9/2024, 15:30');
    expect(formatDate('2024-05-09T00:00:00', 'day', { date_style: 'dddd, MMMM D, YYYY', date_abbreviate: true })).toBe('Thu, May 9, 2024');
    expect(formatDate('2024-05-09T00:00:00', undefined, {})).toBe('May 9, 2024');
  });
});

describe('column settings', () => {
  const settings = {
    column_settings: {
      '["name","TOTAL"]': { number_style: 'currency', currency: 'USD', column_title: 'Revenue' },
      '["ref",["field",7,null]]': { decimals: 0 },
    },
  };

  it('finds a column by name key or by field ref key', () => {
    expect(keyMatches('["name","TOTAL"]', num('TOTAL'))).toBe(true);
    expect(keyMatches('["ref",["field",7,null]]', num('X', { field_ref: ['field', 7, { 'base-type': 'type/Float' }] }))).toBe(true);
    expect(keyMatches('["ref",["field",8,null]]', num('X', { field_ref: ['field', 7, null] }))).toBe(false);
  });

  it('titles the column and shows the currency in tables in the header', () => {
    expect(columnTitle(num('TOTAL'), settings)).toBe('Revenue ($)');
    expect(formatValue(12.5, num('TOTAL'), settings, { inTable: true })).toBe('12.50');
    expect(formatValue(12.5, num('TOTAL'), settings)).toBe('$12.50');
    expect(formatValue(12.5, num('X', { field_ref: ['field', 7, null] }), settings)).toBe('13');
  });

  it('prints identifiers without grouping and dates by unit', () => {
    expect(formatValue(12345, num('ID', { base_type: 'type/BigInteger', semantic_type: 'type/PK' }))).toBe('12345');
    expect(formatValue('2024-02-01T00:00:00Z', date('month'), {}, { compact: true })).toBe('Feb 2024');
    expect(formatValue(null, num('X'))).toBe('(empty)');
  });
});

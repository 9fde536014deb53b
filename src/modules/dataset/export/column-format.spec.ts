import {
  applyPattern,
  currencyIdentifier,
  datePattern,
  excelNumberFormat,
  excelPattern,
  formatNumber,
  monthPattern,
  timePattern,
} from './column-format';
import { formatTemporal, formatTime, formatValue } from './format-value';

const float = { base_type: 'type/Float' };
const int = { base_type: 'type/Integer' };
const at = { base_type: 'type/DateTime' };

describe('column formatting of column_settings', () => {
  it('numbers: separators, decimals, scale, prefix and suffix', () => {
    expect(formatNumber(1234567.891, float, {})).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, float, { number_separators: ',.' })).toBe('1.234.567,89');
    expect(formatNumber(1234567.891, float, { number_separators: ', ' })).toBe('1 234 567,89');
    expect(formatNumber(1234567.891, float, { number_separators: '.' })).toBe('1234567.89');
    expect(formatNumber(2.5, float, { decimals: 3 })).toBe('2.500');
    expect(formatNumber(2.5, float, { decimals: 0 })).toBe('3');
    expect(formatNumber(2.5, float, { scale: 1000 })).toBe('2,500');
    expect(formatNumber(12, int, { prefix: '~', suffix: ' kg' })).toBe('~12 kg');
    expect(formatNumber(-3, int, {})).toBe('-3');
  });

  it('numbers: percent, scientific', () => {
    expect(formatNumber(0.1234, float, { number_style: 'percent' })).toBe('12.34%');
    expect(formatNumber(0.5, float, { number_style: 'percent', decimals: 1 })).toBe('50.0%');
    expect(formatNumber(12345, float, { number_style: 'scientific' })).toBe('1.23e+4');
    expect(formatNumber(10000, float, { number_style: 'scientific' })).toBe('1e+4');
    expect(formatNumber(12345, float, { number_style: 'scientific', decimals: 3 })).toBe('1.235e+4');
  });

  it('currency: in the header by default, else in the value as symbol, code or name', () => {
    expect(formatNumber(1234.5, float, { number_style: 'currency' })).toBe('1,234.50');
    expect(formatNumber(1234.5, float, { number_style: 'currency', currency: 'EUR', currency_in_header: false })).toBe('€1,234.50');
    expect(formatNumber(-5, float, { number_style: 'currency', currency_in_header: false })).toBe('-$5.00');
    expect(formatNumber(5, float, { number_style: 'currency', currency: 'USD', currency_style: 'code', currency_in_header: false })).toBe(
      'USD 5.00',
    );
    expect(formatNumber(5, float, { number_style: 'currency', currency: 'USD', currency_style: 'name', currency_in_header: false })).toBe(
      '5.00 US dollars',
    );
    expect(formatNumber(1234.5, float, { number_style: 'currency', currency: 'JPY' })).toBe('1,235');
    expect([
      currencyIdentifier({ currency: 'EUR' }),
      currencyIdentifier({ currency: 'EUR', currency_style: 'code' }),
      currencyIdentifier({ currency: 'EUR', currency_style: 'name' }),
    ]).toEqual(['€', 'EUR', 'euros']);
  });

  it('dates: style, separator, abbreviation, time style and precision', () => {
    const t = { year: 2024, month: 5, day: 7, hour: 14, minute: 5, second: 9, millisecond: 42 };
    expect(applyPattern(datePattern({}), t)).toBe('May 7, 2024');
    expect(applyPattern(datePattern({ date_style: 'D MMMM, YYYY' }), t)).toBe('7 May, 2024');
    expect(applyPattern(datePattern({ date_style: 'dddd, MMMM D, YYYY', date_abbreviate: true }), t)).toBe('Tue, May 7, 2024');
    expect(applyPattern(datePattern({ date_style: 'M/D/YYYY', date_separator: '-' }), t)).toBe('5-7-2024');
    expect(applyPattern(datePattern({ date_style: 'YYYY/M/D', date_separator: '.' }), t)).toBe('2024.5.7');
    expect(applyPattern(timePattern({})!, t)).toBe('2:05 PM');
    expect(applyPattern(timePattern({ time_style: 'HH:mm', time_enabled: 'seconds' })!, t)).toBe('14:05:09');
    expect(applyPattern(timePattern({ time_enabled: 'milliseconds' })!, t)).toBe('2:05:09.042 PM');
    expect(timePattern({ time_enabled: null })).toBeNull();
    expect([
      monthPattern({}),
      monthPattern({ date_style: 'M/D/YYYY' }),
      monthPattern({ date_style: 'YYYY/M/D', date_separator: '-' }),
    ]).toEqual(['MMMM, YYYY', 'M/YYYY', 'YYYY-M']);
  });

  it('dates through formatValue: settings with the unit', () => {
    expect(formatTemporal('2024-05-07T14:05:00', at, { date_style: 'D/M/YYYY', time_style: 'HH:mm' })).toBe('7/5/2024, 14:05');
    expect(formatTemporal('2024-05-07T14:05:00', at, { time_enabled: null })).toBe('May 7, 2024');
    expect(formatTemporal('2024-05-01T00:00:00', { ...at, unit: 'month' }, { date_style: 'M/D/YYYY' })).toBe('5/2024');
    expect(formatTemporal('2024-04-28T00:00:00', { ...at, unit: 'week' }, { date_style: 'M/D/YYYY' })).toBe('4/28/2024 - 5/4/2024');
    expect(formatTime('14:05:00', { time_style: 'HH:mm' })).toBe('14:05');
    expect(formatValue(0.25, float, true, { number_style: 'percent' })).toBe('25%');
    expect(formatValue(0.25, float, false, { number_style: 'percent' })).toBe(0.25);
  });

  it('Excel formats of the same settings', () => {
    expect(excelPattern('dddd, MMMM D, YYYY')).toBe('dddd, mmmm d, yyyy');
    expect(excelPattern('M/D/YYYY')).toBe('m/d/yyyy');
    expect(excelPattern('HH:mm:ss.SSS')).toBe('hh:mm:ss.000');
    expect(excelPattern('h:mm A')).toBe('h:mm AM/PM');
    expect(excelNumberFormat(float, {})).toBeNull();
    expect(excelNumberFormat(float, { decimals: 3 })).toBe('#,##0.000');
    expect(excelNumberFormat(float, { number_style: 'percent' })).toBe('#,##0.00%');
    expect(excelNumberFormat(float, { number_style: 'scientific' })).toBe('0.00E+00');
    expect(excelNumberFormat(float, { number_style: 'currency' })).toBe('#,##0.00');
    expect(excelNumberFormat(float, { number_style: 'currency', currency: 'EUR', currency_in_header: false })).toBe('"€"#,##0.00');
    expect(excelNumberFormat(int, { prefix: 'n=', suffix: ' kg', number_separators: '.' })).toBe('"n="0" kg"');
  });
});

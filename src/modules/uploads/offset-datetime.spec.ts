import { toUtcText } from './loaders/offset-datetime';

describe('toUtcText', () => {
  it('applies the offset and keeps the fraction as written', () => {
    expect(toUtcText('2024-01-02 10:00:01+05:30')).toBe('2024-01-02 04:30:01+00');
    expect(toUtcText('2024-01-02T23:30:00.123456-0100')).toBe('2024-01-03 00:30:00.123456+00');
    expect(toUtcText('2024-03-01T00:15Z')).toBe('2024-03-01 00:15:00+00');
    expect(toUtcText('2024-03-01T00:15:00+02')).toBe('2024-02-29 22:15:00+00');
  });

  it('leaves anything else as it is', () => {
    expect(toUtcText('2024-03-01 00:15:00')).toBe('2024-03-01 00:15:00');
    expect(toUtcText('soon')).toBe('soon');
  });
});

import { ValidationError } from '../../common/errors/api-errors';
import { parseBase64Json, parseCell, parseComparisonEntity, parseEntity, parseShow, parseTemplate } from './automagic-params';

const errorsOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as ValidationError).errors;
  }
  throw new Error('no error');
};

describe('x-ray path parameters', () => {
  it('takes the known entities and comparison entities only', () => {
    expect(parseEntity('table')).toBe('table');
    expect(errorsOf(() => parseEntity('transform'))).toEqual({ entity: 'Invalid entity type' });
    expect(parseComparisonEntity('adhoc')).toBe('adhoc');
    expect(errorsOf(() => parseComparisonEntity('field'))).toEqual({ 'comparison-entity': 'Invalid comparison entity type' });
  });

  it('takes show as all or a natural number', () => {
    expect([parseShow(undefined), parseShow('all'), parseShow('0'), parseShow('12')]).toEqual([null, 'all', 0, 12]);
    for (const bad of ['-1', '1.5', 'ALL', '', ['1', '2']]) expect(errorsOf(() => parseShow(bad))).toEqual({ show: 'invalid show value' });
  });

  it('decodes standard and URL-safe base64 JSON, and a cell only when it is a clause', () => {
    const clause = ['=', ['field', 1, null], 'a/b?'];
    const std = Buffer.from(JSON.stringify(clause)).toString('base64');
    expect(parseCell(std)).toEqual(clause);
    expect(parseBase64Json('x', std.replace(/\+/g, '-').replace(/\//g, '_'))).toEqual(clause);
    for (const bad of [
      '%%%',
      Buffer.from('nope').toString('base64'),
      Buffer.from('{"a":1}').toString('base64'),
      Buffer.from('[1]').toString('base64'),
    ]) {
      expect(errorsOf(() => parseCell(bad))).toEqual({ 'cell-query': "value couldn't be parsed as base64 encoded JSON" });
    }
  });

  it('finds templates by prefix and name', () => {
    expect(parseTemplate('table', 'UserTable').template.name).toBe('UserTable');
    expect(parseTemplate('field', 'Location').template.applies_to).toBe('location');
    expect(errorsOf(() => parseTemplate('toString', 'x'))).toEqual({ prefix: 'invalid value for prefix' });
    expect(errorsOf(() => parseTemplate('table', 'Number'))).toEqual({ 'dashboard-template': 'invalid value for dashboard template name' });
  });
});

import { QueryCompileError } from '../compile/contract';
import { InvalidQueryError } from '../mbql/validate';
import { PreprocessError } from '../preprocess/context';
import { asSent, failedStage, markStage, withPlace } from './failures';

describe('asSent', () => {
  const places: Array<[string, string]> = [
    ['query.filter.and[1]', 'stages[1].filters[1]'],
    ['query.filter', 'stages[1].filters'],
    ['query.source-query', 'stages[0]'],
    ['query', 'stages[1]'],
    ['native', 'stages[0]'],
  ];
  const compileError = (message: string, clause: string | undefined, at: string) =>
    Object.assign(new QueryCompileError(message, clause), { at });

  it('names the place of a compile error as the MBQL 5 query sent it', () => {
    expect((asSent(compileError('Invalid date "x" in "filter".', 'filter', 'query.filter.and[1]'), places) as Error).message).toBe(
      'Invalid date "x" in "stages[1].filters[1]".',
    );
    expect(
      (asSent(compileError('Unknown field 9 in "breakout".', 'breakout', 'query.source-query.breakout[0]'), places) as Error).message,
    ).toBe('Unknown field 9 in "stages[0].breakout[0]".');
    expect((asSent(compileError('"limit" must be a whole number, 0 or more.', 'limit', 'query.limit'), places) as Error).message).toBe(
      '"stages[1].limit" must be a whole number, 0 or more.',
    );
    expect((asSent(compileError('The query selects no columns.', 'fields', 'query.fields'), places) as Error).message).toBe(
      'The query selects no columns in "stages[1].fields".',
    );
  });

  it('names a place of a saved question used as a source by its card', () => {
    expect((asSent(compileError('Invalid date "x" in "filter".', 'filter', 'card 5: query.filter'), places) as Error).message).toBe(
      'Invalid date "x" in "card 5: query.filter".',
    );
  });

  it('places preprocess errors, and invalid-query errors keeping their stage', () => {
    const pre = new PreprocessError('Field 3 is not a foreign key in "breakout".', 'breakout', 'query.breakout');
    expect((asSent(pre, places) as Error).message).toBe('Field 3 is not a foreign key in "stages[1].breakout".');
    const invalid = new InvalidQueryError('field 7 does not exist in database 1.', 'native.template-tags.x.dimension');
    markStage(invalid, 'validate');
    const sent = asSent(invalid, places) as InvalidQueryError;
    expect(sent.message).toBe('Invalid query: stages[0].template-tags.x.dimension: field 7 does not exist in database 1.');
    expect(failedStage(sent)).toBe('validate');
  });

  it('leaves errors of a legacy query, errors without a place and other errors as they are', () => {
    const e = compileError('Invalid date "x" in "filter".', 'filter', 'query.filter');
    expect(asSent(e, undefined)).toBe(e);
    expect(e.message).toBe('Invalid date "x" in "filter".');
    const unplaced = new PreprocessError('Card 9 does not exist.');
    expect((asSent(unplaced, places) as Error).message).toBe('Card 9 does not exist.');
    const other = new TypeError('x');
    expect(asSent(other, places)).toBe(other);
  });
});

describe('withPlace', () => {
  it('replaces the clause the message names, or adds the place before the final period', () => {
    expect(withPlace('Unknown column "TOTAL" of the source query in "fields".', 'fields', 'stages[0].fields[1]')).toBe(
      'Unknown column "TOTAL" of the source query in "stages[0].fields[1]".',
    );
    expect(withPlace('Invalid value {"a":1} in "filter": expected a string.', 'filter', 'stages[0].filters[0]')).toBe(
      'Invalid value {"a":1} in "stages[0].filters[0]": expected a string.',
    );
    expect(withPlace('Unknown report time zone "X".', 'query', 'stages[0]')).toBe('Unknown report time zone "X" in "stages[0]".');
    expect(withPlace('No place', undefined, 'stages[0]')).toBe('No place in "stages[0]"');
  });
});

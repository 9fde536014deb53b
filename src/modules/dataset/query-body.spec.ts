import { ApiError } from '../../common/errors/api-errors';
import { InvalidQueryError } from '../../query-engine/mbql/validate';
import { checkQueryBody, datasetQueryOf, isDatasetQuery, isNativeQuery, nativeRequestOf, normalizedOrError } from './query-body';

const legacy = { database: 1, type: 'query', query: { 'source-table': 2 } };
const mbql5 = { 'lib/type': 'mbql/query', database: 1, stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': 2 }] };
const native5 = { 'lib/type': 'mbql/query', database: 1, stages: [{ 'lib/type': 'mbql.stage/native', native: 'SELECT 1' }] };

function refusal(f: () => unknown): { status: number; body: unknown } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return { status: (e as ApiError).status, body: (e as ApiError).body() };
  }
  throw new Error('accepted');
}

describe('the body check of the query endpoints', () => {
  it('words a bad body as each endpoint always has', () => {
    expect(refusal(() => checkQueryBody([1], 'dataset')).body).toMatchObject({ errors: { query: 'value must be a map.' } });
    expect(refusal(() => checkQueryBody({ database: 'one' }, 'dataset')).body).toEqual({
      errors: { database: 'value may be nil, or if non-nil, value must be an integer.' },
      'specific-errors': { database: ['value must be an integer, received: "one"'] },
    });
    expect(refusal(() => checkQueryBody({ database: 0 }, 'pivot')).body).toMatchObject({
      errors: { database: 'nullable value must be an integer greater than zero.' },
    });
    expect(refusal(() => checkQueryBody({ type: 'query' }, 'pivot')).body).toEqual({ message: '`database` is required for all queries.' });
    expect(refusal(() => checkQueryBody('x', 'required')).body).toMatchObject({
      errors: { database: 'value must be an integer greater than zero.' },
    });
    expect(refusal(() => checkQueryBody({ database: 0 }, 'required')).body).toMatchObject({
      errors: { database: 'value must be an integer greater than zero.' },
    });
    expect(checkQueryBody({}, 'dataset')).toEqual({});
    expect(checkQueryBody(mbql5, 'pivot')).toBe(mbql5);
  });

  it('knows dataset queries in both forms, and native ones', () => {
    expect([legacy, mbql5, native5, { database: 1, type: 'native', native: {} }].map(isDatasetQuery)).toEqual([true, true, true, true]);
    expect(isDatasetQuery({ 'source-table': 2 })).toBe(false);
    expect([legacy, mbql5, native5, { type: 'native' }].map(isNativeQuery)).toEqual([false, false, true, true]);
  });

  it('unwraps {database, query} with an inner or a whole query, on the body database', () => {
    expect(datasetQueryOf(legacy)).toBe(legacy);
    expect(datasetQueryOf(mbql5)).toBe(mbql5);
    expect(datasetQueryOf({ database: 3, query: { 'source-table': 2 } })).toEqual({
      database: 3,
      type: 'query',
      query: { 'source-table': 2 },
    });
    expect(datasetQueryOf({ database: 3, query: mbql5 })).toEqual({ ...mbql5, database: 3 });
    expect(refusal(() => datasetQueryOf({ database: 3 })).body).toMatchObject({ errors: { query: 'value must be a map.' } });
    expect(refusal(() => datasetQueryOf({ database: 3, type: 'native' })).body).toMatchObject({
      errors: { native: 'value must be a map.' },
    });
  });

  it('reads the /native body: wrapped, or the query itself with pretty', () => {
    expect(nativeRequestOf({ database: 1, query: { 'source-table': 2 }, pretty: true })).toEqual({
      query: legacy,
      sent: { 'source-table': 2 },
      pretty: true,
    });
    expect(nativeRequestOf({ ...mbql5, pretty: false })).toEqual({ query: mbql5, sent: mbql5, pretty: false });
    expect(refusal(() => nativeRequestOf({ database: 1 })).body).toMatchObject({ errors: { query: 'value must be a map.' } });
    expect(refusal(() => nativeRequestOf({ database: 1, query: {}, pretty: 'yes' })).body).toMatchObject({
      errors: { pretty: 'value must be a boolean.' },
    });
  });

  it('normalizes, or says why not', () => {
    expect(normalizedOrError(mbql5)).toEqual(legacy);
    expect(normalizedOrError({ ...mbql5, stages: [] })).toBeInstanceOf(InvalidQueryError);
  });
});

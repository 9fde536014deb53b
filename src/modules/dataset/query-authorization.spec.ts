import { ForbiddenError } from '../../common/errors/api-errors';
import type { AuthUser } from '../../common/auth/current-user';
import type { PlannedQuery } from '../../query-engine/execute/query-processor';
import type { SharedGrant } from '../../common/auth/shared-grant';
import { downloadRowCap, LIMITED_DOWNLOAD_ROWS, withRowCap } from './query-authorization';

const user: AuthUser = { id: 7, isSuperuser: false, groupIds: [1] };
const shared: SharedGrant = { shared: { via: 'public', model: 'card', id: 3 } };

describe('downloadRowCap', () => {
  it.each(['csv-download', 'xlsx-download', 'json-download'])('applies to %s runs of a user', (context) => {
    expect(downloadRowCap(user, context, 'full')).toBeUndefined();
    expect(downloadRowCap(user, context, 'limited')).toBe(LIMITED_DOWNLOAD_ROWS);
    expect(() => downloadRowCap(user, context, 'none')).toThrow(ForbiddenError);
  });

  it.each(['ad-hoc', 'question', 'dashboard', 'public-question', 'embedded-dashboard'])('leaves %s runs alone', (context) => {
    expect(downloadRowCap(user, context, 'none')).toBeUndefined();
  });

  it('leaves runs without a user (public links, embeds) alone', () => {
    expect(downloadRowCap(shared, 'csv-download', 'none')).toBeUndefined();
    expect(downloadRowCap(shared, 'csv-download', 'limited')).toBeUndefined();
  });
});

describe('withRowCap', () => {
  const planned = (constraints?: Record<string, number>): PlannedQuery =>
    ({
      query: { database: 1, type: 'query', query: { 'source-table': 2 }, ...(constraints ? { constraints } : {}) },
      database: { id: 1, engine: 'sqlite' },
    }) as PlannedQuery;

  it('lowers a larger max-results of the query', () => {
    expect(withRowCap(planned({ 'max-results': 1_048_575, 'max-results-bare-rows': 5 }), 10).query.constraints).toEqual({
      'max-results': 10,
      'max-results-bare-rows': 5,
    });
  });

  it('keeps a query without max-results, or with a smaller one, as it is', () => {
    const none = planned();
    const small = planned({ 'max-results': 3 });
    expect(withRowCap(none, 10)).toBe(none);
    expect(withRowCap(small, 10)).toBe(small);
  });
});

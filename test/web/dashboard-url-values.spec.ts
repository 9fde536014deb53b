import type { DashboardParameter } from '../../web/src/app/api/dashboard-types';
import { urlWithValues, valuesFromUrl } from '../../web/src/app/dashboards/params';

const param = (id: string, type: string, over: Partial<DashboardParameter> = {}): DashboardParameter => ({
  id,
  name: id,
  slug: id,
  type,
  ...over,
});

const CATEGORY = param('category', 'string/=');
const PRICE = param('price', 'number/=');
const WHEN = param('when', 'date/all-options');
const STATE = param('state', 'string/=', { default: ['CA'] });
const ALL = [CATEGORY, PRICE, WHEN, STATE];

describe("a dashboard's filter values in its URL", () => {
  it('reads list, number and date filters by slug, and keeps defaults the URL does not name', () => {
    const url = new URLSearchParams('category=Home&category=Toys&price=10&price=x&when=past30days&other=1');
    expect(valuesFromUrl(ALL, url)).toEqual({ category: ['Home', 'Toys'], price: [10], when: 'past30days', state: ['CA'] });
  });

  it('clears a default the URL gives empty, and drops a number filter with no number', () => {
    expect(valuesFromUrl(ALL, new URLSearchParams('state=&price=abc'))).toEqual({});
  });

  it('writes set values, an emptied default as an empty slug, and keeps other keys', () => {
    const next = urlWithValues(
      ALL,
      { category: ['Home', 'Toys'], price: [10], when: 'past30days', state: null },
      new URLSearchParams('tab=2&category=Old'),
    );
    expect(next.toString()).toBe('tab=2&category=Home&category=Toys&price=10&when=past30days&state=');
    // What it writes reads back as the same values.
    expect(valuesFromUrl(ALL, next)).toEqual({ category: ['Home', 'Toys'], price: [10], when: 'past30days' });
  });

  it('leaves a filter without a value or default out of the URL', () => {
    expect(urlWithValues(ALL, { category: [], state: ['NY'] }, new URLSearchParams()).toString()).toBe('state=NY');
  });
});

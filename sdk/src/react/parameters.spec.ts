import { cardQueryParameters, dashboardQueryParameters, effectiveValues, visibleParameters } from './parameters';

const params = [
  { id: 'p1', slug: 'category', type: 'string/=', target: ['dimension', ['field', 4, null]] },
  { id: 'p2', slug: 'price', type: 'number/>=', target: ['dimension', ['field', 5, null]], default: [10] },
  { id: 'p3', slug: 'tenant', type: 'string/=', target: ['dimension', ['field', 6, null]] },
];

describe('parameters of the static components', () => {
  it('values by slug (or id) over the defaults; empty values are no value', () => {
    expect(effectiveValues(params, { category: ['Gizmo'], p3: 'acme' })).toEqual({ category: ['Gizmo'], price: [10], tenant: 'acme' });
    expect(effectiveValues(params, { price: null, category: [] })).toEqual({});
  });

  it('card queries carry id, type, target and value; dashcard queries id and value', () => {
    expect(cardQueryParameters(params, { category: ['Gizmo'] })).toEqual([
      { id: 'p1', type: 'string/=', target: ['dimension', ['field', 4, null]], value: ['Gizmo'] },
      { id: 'p2', type: 'number/>=', target: ['dimension', ['field', 5, null]], value: [10] },
    ]);
    expect(dashboardQueryParameters(params, { tenant: 'acme' })).toEqual([
      { id: 'p2', value: [10] },
      { id: 'p3', value: 'acme' },
    ]);
  });

  it('hidden parameters are not shown but still apply', () => {
    expect(visibleParameters(params, ['tenant']).map((p) => p.slug)).toEqual(['category', 'price']);
    expect(dashboardQueryParameters(params, { tenant: 'acme' }).map((p) => p.id)).toContain('p3');
  });
});

import { cardQuery, filterFields } from '../../web/src/app/xray/params';

const query = { database: 1, type: 'query', query: { 'source-table': 2, aggregation: [['count']] } };
const category = ['field', 7, { 'source-field': 3 }];
const dashcard = (id: number, mappings: Array<[string, unknown]>, withCard = true) => ({
  id,
  card: withCard ? { id, name: `Card ${id}`, dataset_query: query } : null,
  parameter_mappings: mappings.map(([parameter_id, ref]) => ({ parameter_id, card_id: id, target: ['dimension', ref] })),
});
const gizmo = { id: 'cat', type: 'string/=', value: ['Gizmo'] };

/** An x-ray card's ad-hoc query and its filters' fields (xray/params.ts): what XrayPage sends and lists. */
describe('x-ray filters', () => {
  it("sends a card its query as it is, then with the set filters mapped to it as parameters (each with the card's target)", () => {
    const dc = dashcard(-1, [
      ['cat', category],
      ['when', ['field', 9, { 'temporal-unit': 'month' }]],
    ]);
    expect(cardQuery(dc, [])).toBe(query);
    expect(cardQuery(dc, [gizmo])).toEqual({
      ...query,
      parameters: [{ id: 'cat', type: 'string/=', target: ['dimension', category], value: ['Gizmo'] }],
    });
    // A filter not mapped to this card is not sent to it.
    expect(cardQuery(dashcard(-2, [['when', ['field', 9, null]]]), [gizmo])).toBe(query);
    expect(cardQuery(dashcard(-3, [], false), [gizmo])).toEqual({});
  });

  it('finds the field each filter is mapped to, from the first card that maps it; a text card maps none', () => {
    const fields = filterFields([
      dashcard(-1, [], false),
      dashcard(-2, [['cat', category]]),
      dashcard(-3, [
        ['cat', ['field', 8, null]],
        ['when', ['field', 9, null]],
      ]),
      dashcard(-4, [['by-name', ['field', 'TOTAL', { 'base-type': 'type/Float' }]]]),
    ]);
    expect([...fields]).toEqual([
      ['cat', 7],
      ['when', 9],
    ]);
  });
});

import { columnTitles } from './column-titles';

const cols = [
  { name: 'ID', display_name: 'ID', field_ref: ['field', 11, null] },
  { name: 'TOTAL', display_name: 'Total', field_ref: ['field', 12, null] },
  { name: 'CATEGORY', display_name: 'Products → Category', field_ref: ['field', 30, { 'join-alias': 'Products' }] },
  { name: 'count', display_name: 'Count', field_ref: ['aggregation', 0] },
];

describe('export column titles', () => {
  it('uses display names when nothing is renamed', () => {
    expect(columnTitles(cols, {})).toEqual(['ID', 'Total', 'Products → Category', 'Count']);
  });

  it('takes column_title by name key and by ref key, ignoring other settings', () => {
    const settings = {
      column_settings: {
        '["name","TOTAL"]': { column_title: 'Total $', number_style: 'currency' },
        '["ref",["field",30,{"join-alias":"Products"}]]': { column_title: 'Kind' },
        '["ref",["aggregation",0]]': { column_title: 'Orders' },
        '["ref",["field",11,null]]': { decimals: 2 },
        'not json': { column_title: 'x' },
      },
    };
    expect(columnTitles(cols, settings)).toEqual(['ID', 'Total $', 'Kind', 'Orders']);
  });

  it('matches a field ref whatever its options, but not across join aliases', () => {
    const byId = { column_settings: { '["ref",["field",12,{"base-type":"type/Float"}]]': { column_title: 'Amount' } } };
    expect(columnTitles(cols, byId)[1]).toBe('Amount');
    const otherJoin = { column_settings: { '["ref",["field",30,null]]': { column_title: 'Nope' } } };
    expect(columnTitles(cols, otherJoin)[2]).toBe('Products → Category');
  });
});

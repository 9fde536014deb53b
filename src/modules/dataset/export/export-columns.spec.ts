import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { exportColumns, mergedVisualizationSettings } from './export-columns';

const col = (name: string, display_name: string, field_ref: unknown[], extra: Partial<CompiledColumn> = {}): CompiledColumn =>
  ({
    name,
    display_name,
    source: 'fields',
    base_type: 'type/Float',
    effective_type: 'type/Float',
    semantic_type: null,
    field_ref,
    ...extra,
  }) as CompiledColumn;
const cols = [col('ID', 'ID', ['field', 1, null]), col('TOTAL', 'Total', ['field', 2, null]), col('TAX', 'Tax', ['field', 3, null])];

describe('exportColumns', () => {
  it('keeps every column in order without table.columns', () => {
    expect(exportColumns(cols, {}, false)).toMatchObject({ indices: [0, 1, 2], titles: ['ID', 'Total', 'Tax'] });
  });

  it('orders by table.columns and drops disabled and unlisted columns, by name or field ref', () => {
    const viz = {
      'table.columns': [
        { name: 'TAX', enabled: true },
        { name: 'ID', enabled: false },
        { fieldRef: ['field', 2, { 'base-type': 'type/Float' }], enabled: true },
        { name: 'GONE', enabled: true },
      ],
    };
    expect(exportColumns(cols, viz, false)).toMatchObject({ indices: [2, 1], titles: ['Tax', 'Total'] });
    expect(exportColumns(cols, { 'table.columns': [{ name: 'ID', enabled: false }] }, false).indices).toEqual([0, 1, 2]);
  });

  it('takes settings by name and by ref (ref over name), and puts the currency in the header when formatting', () => {
    const viz = {
      column_settings: {
        '["name","TOTAL"]': { number_style: 'currency', currency: 'EUR', column_title: 'Amount' },
        '["ref",["field",2,null]]': { decimals: 1, column_title: 'Sum' },
        '["ref",["field",3,null]]': { number_style: 'currency', currency_style: 'code', currency_in_header: true },
      },
    };
    const out = exportColumns(cols, viz, true);
    expect(out.titles).toEqual(['ID', 'Sum (€)', 'Tax (USD)']);
    expect(out.settings[1]).toEqual({ number_style: 'currency', currency: 'EUR', column_title: 'Sum', decimals: 1 });
    expect(exportColumns(cols, viz, false).titles).toEqual(['ID', 'Sum', 'Tax']);
    const inValues = { column_settings: { '["name","TOTAL"]': { number_style: 'currency', currency_in_header: false } } };
    expect(exportColumns(cols, inValues, true).titles[1]).toBe('Total');
  });

  it("merges a dashcard's settings over its card's, column by column", () => {
    const card = {
      'table.columns': [{ name: 'ID', enabled: true }],
      column_settings: { '["name","ID"]': { column_title: 'Id', decimals: 1 }, '["name","TAX"]': { prefix: '~' } },
    };
    const dashcard = { column_settings: { '["name","ID"]': { column_title: 'Number' } }, 'card.title': 'x' };
    expect(mergedVisualizationSettings(card, dashcard)).toEqual({
      'table.columns': [{ name: 'ID', enabled: true }],
      'card.title': 'x',
      column_settings: { '["name","ID"]': { column_title: 'Number', decimals: 1 }, '["name","TAX"]': { prefix: '~' } },
    });
    expect(mergedVisualizationSettings({ a: 1 }, {})).toEqual({ a: 1 });
  });
});

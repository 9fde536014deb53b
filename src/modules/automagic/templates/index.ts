import type { Template } from '../template.types';
import CategoryField from './field/Category.json';
import DateField from './field/Date.json';
import LocationField from './field/Location.json';
import NumberField from './field/Number.json';
import GenericMetric from './metric/GenericMetric.json';
import EventTable from './table/EventTable.json';
import GenericTable from './table/GenericTable.json';
import TransactionTable from './table/TransactionTable.json';
import UserTable from './table/UserTable.json';

/**
 * The templates, kept as data and imported as JSON (so the build copies them into dist with the code). The prefix is
 * the kind of entity a template applies to; within `table`, the order is the order of preference: the first template
 * whose required dimensions all find a field is the table's kind.
 */
export const TEMPLATES: Readonly<Record<string, readonly Template[]>> = {
  table: [TransactionTable, UserTable, EventTable, GenericTable] as Template[],
  field: [NumberField, CategoryField, DateField, LocationField] as Template[],
  metric: [GenericMetric] as Template[],
};

export function findTemplate(prefix: string, name: string): Template | undefined {
  return TEMPLATES[prefix]?.find((t) => t.name === name);
}

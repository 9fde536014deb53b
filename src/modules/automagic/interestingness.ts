import type { XTableRow, XField } from './xray.types';
import { chooseTemplate } from './field-matching';
import { TEMPLATES } from './templates';

/** A more specific kind of table makes a richer x-ray. */
const TEMPLATE_BONUS: Record<string, number> = { TransactionTable: 30, UserTable: 25, EventTable: 20, GenericTable: 0 };

/**
 * How interesting a table's x-ray would be: its fields with a useful semantic type (keys aside), the kind of table its
 * fields make it, its links (foreign keys out and in) and the order of magnitude of its rows.
 */
export function rankTable(
  t: Pick<XTableRow, 'estimated_row_count'>,
  fields: XField[],
  linksIn: number,
): { score: number; template: string } {
  const own = fields.filter((f) => f.via === null && !f.hidden);
  const useful = own.filter((f) => f.semanticType !== null && f.semanticType !== 'type/PK' && f.semanticType !== 'type/FK').length;
  const linksOut = own.filter((f) => f.semanticType === 'type/FK').length;
  const template = chooseTemplate(TEMPLATES.table, fields).name;
  const rows = t.estimated_row_count ?? 0;
  const score = useful * 5 + (TEMPLATE_BONUS[template] ?? 0) + (linksOut + linksIn) * 3 + Math.round(Math.log10(rows + 1) * 2);
  return { score, template };
}

import { parseJson } from '../../common/database/stored-json';
import { isMbql5Query } from '../../query-engine/mbql/mbql5';
import { legacyQuery } from '../cards';
import type { CardRow } from '../../schema/card.rows';
import type { ReadableDashboard } from '../dashboards';
import type { TabRow } from '../../schema/dashboard.rows';
import type { Dimension } from '../../schema/dimension.entity';
import type { WarehouseField } from '../../schema/field.entity';

type Tags = Record<string, Record<string, unknown>>;

/** The parts of a card's query a viewer's client needs: its type and, for SQL, the template tags (never the SQL). */
export function sharedQuery(card: CardRow): { type: string; native?: { 'template-tags': Tags } } {
  const sent = parseJson<unknown>(card.dataset_query, null);
  const q = legacyQuery(sent);
  if (q?.type === 'native') return { type: 'native', native: { 'template-tags': (q.native?.['template-tags'] ?? {}) as unknown as Tags } };
  return { type: q?.type ?? (isMbql5Query(sent) ? 'query' : String((sent as { type?: unknown } | null)?.type ?? 'query')) };
}

/**
 * The card's parameters: those it stores, or for a SQL card that stores none, one per template tag a viewer can set
 * (as Metabase derives them).
 */
export function sharedParameters(card: CardRow): Array<Record<string, unknown>> {
  const stored = parseJson<Array<Record<string, unknown>>>(card.parameters, []);
  if (stored.length > 0) return stored;
  const tags = sharedQuery(card).native?.['template-tags'] ?? {};
  return Object.entries(tags)
    .filter(([, t]) => t && !['card', 'snippet'].includes(String(t.type)))
    .map(([name, t]) => ({
      id: t.id ?? name,
      type: t['widget-type'] ?? (t.type === 'number' ? 'number/=' : t.type === 'date' ? 'date/single' : 'category'),
      target: t.type === 'dimension' ? ['dimension', ['template-tag', name]] : ['variable', ['template-tag', name]],
      name: t['display-name'] ?? name,
      slug: name,
      ...(t.default !== undefined ? { default: t.default } : {}),
      ...(t.required !== undefined ? { required: t.required } : {}),
    }));
}

/** A card as a shared dashboard shows it on a dashcard: no owner, collection, database or SQL. */
export function sharedCardBrief(card: CardRow) {
  return {
    id: card.id,
    name: card.name,
    description: card.description,
    display: card.display,
    visualization_settings: parseJson(card.visualization_settings, {}),
    dataset_query: sharedQuery(card),
  };
}

export type ParamFields = Record<string, ReturnType<typeof paramField>>;

/** GET /api/public/card/:uuid: the keys Metabase answers there, no SQL of an MBQL card, nothing of its collection or owner. */
export function sharedCardView(card: CardRow, paramFields: ParamFields) {
  return { ...sharedCardBrief(card), parameters: sharedParameters(card), param_fields: paramFields };
}

/** The actions of a dashboard's action buttons. */
export function dashcardActionIds(found: ReadableDashboard): number[] {
  return [...new Set(found.dashcards.map((dc) => dc.row.action_id).filter((id) => id !== null))];
}

/**
 * GET /api/public/dashboard/:uuid, with the keys Metabase answers there; `cards` by id, those not served (archived) absent;
 * `actions` the public views of its buttons' actions by id.
 */
export function sharedDashboardView(
  found: ReadableDashboard,
  tabs: readonly TabRow[],
  cards: Map<number, CardRow>,
  paramFields: ParamFields,
  actions = new Map<number, Record<string, unknown>>(),
) {
  const d = found.dashboard;
  const brief = (id: number | null) => (id === null || !cards.has(id) ? null : sharedCardBrief(cards.get(id) as CardRow));
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    parameters: d.parameters_list,
    width: d.width ?? 'fixed',
    auto_apply_filters: d.auto_apply_filters ?? true,
    tabs: tabs.map((t) => ({ id: t.id, dashboard_id: t.dashboard_id, name: t.name, position: t.position })),
    param_fields: paramFields,
    dashcards: found.dashcards
      .filter((dc) => dc.card_id === null || cards.has(dc.card_id))
      .map((dc) => ({
        id: dc.id,
        card: brief(dc.card_id),
        card_id: dc.card_id,
        dashboard_id: d.id,
        series: dc.series_card_ids.map(brief).filter((c) => c !== null),
        col: dc.row.col,
        row: dc.row.row,
        size_x: dc.row.size_x,
        size_y: dc.row.size_y,
        dashboard_tab_id: dc.dashboard_tab_id,
        parameter_mappings: dc.parameter_mappings,
        visualization_settings: parseJson(dc.row.visualization_settings, {}),
        ...(dc.row.action_id === null ? {} : { action_id: dc.row.action_id, action: actions.get(dc.row.action_id) ?? null }),
      })),
  };
}

/** What paramField needs to know of a field's neighbours (only fields that may be shown). */
export interface ParamFieldRelations {
  nameField(f: WarehouseField): WarehouseField | null;
  field(id: number | null): WarehouseField | null;
  dimensions(f: WarehouseField): Dimension[];
}

/**
 * A field behind a parameter, as the viewer's filter widget needs it: the columns Metabase sends for it
 * (`Field:params-columns-only`), its `name_field` (a primary key's Name field) and its dimensions with their
 * human-readable field. Those two, and the field itself, are exactly the second fields the shared look-ups accept
 * for it (SharedFieldsService); Metabase's widget remaps through them in that order.
 */
export function paramField(f: WarehouseField, rel: ParamFieldRelations) {
  return {
    ...paramFieldBrief(f),
    effective_type: f.effective_type ?? f.base_type,
    name_field: briefOrNull(rel.nameField(f)),
    dimensions: rel.dimensions(f).map((d) => ({
      id: Number(d.id),
      field_id: Number(d.field_id),
      name: d.name,
      type: d.type,
      human_readable_field_id: d.human_readable_field_id === null ? null : Number(d.human_readable_field_id),
      human_readable_field: briefOrNull(rel.field(d.human_readable_field_id)),
    })),
  };
}

/** Metabase's `Field:params-columns-only`. */
function paramFieldBrief(f: WarehouseField) {
  return {
    id: Number(f.id),
    table_id: Number(f.table_id),
    name: f.name,
    display_name: f.display_name,
    base_type: f.base_type,
    semantic_type: f.semantic_type,
    has_field_values: f.has_field_values,
    fk_target_field_id: f.fk_target_field_id === null ? null : Number(f.fk_target_field_id),
  };
}

const briefOrNull = (f: WarehouseField | null) => (f ? paramFieldBrief(f) : null);

import { fieldRef } from './card-builder';
import { layout, type XDashboard } from './dashboard-builder';
import type { XCard, XParameter } from './xray.types';

export interface RelatedLink {
  url: string;
  title: string;
  description?: string;
}

export type Related = Record<string, RelatedLink[]>;

export interface ViewContext {
  creatorId: number;
  /** Cards on this source can be filtered by the parameters (the other side of a comparison may be another table). */
  parameterSource: number | string;
  related: Related;
  /** Where the rest of the cards are, when `show` left some out. */
  moreUrl: string | null;
  transientName: string;
  transientFilters: unknown[] | null;
  paired: boolean;
}

function cardView(card: XCard, id: number, creatorId: number) {
  const q = card.datasetQuery;
  return {
    id,
    name: card.title,
    description: null,
    display: card.display,
    dataset_query: q,
    visualization_settings: card.settings,
    parameters: [],
    parameter_mappings: [],
    result_metadata: null,
    type: 'question',
    query_type: 'query',
    database_id: q.database,
    table_id: typeof q.query['source-table'] === 'number' ? q.query['source-table'] : null,
    collection_id: null,
    archived: false,
    enable_embedding: false,
    embedding_params: null,
    creator_id: creatorId,
    entity_id: null,
    transient: true,
  };
}

function mapping(p: XParameter, cardId: number) {
  return { parameter_id: p.id, card_id: cardId, target: ['dimension', fieldRef(p.field)] };
}

const TEXT_VS = (text: string) => ({
  text,
  virtual_card: { name: null, display: 'text', visualization_settings: {}, dataset_query: {}, archived: false },
  'dashcard.background': false,
  'text.align_vertical': 'bottom',
});

/**
 * An x-ray in the shape of GET /api/dashboard/:id, unsaved: no id, negative ids for its dashcards and transient
 * cards (POST /api/dashboard/save gives them real ones), sections as text cards, and the x-ray's own keys
 * (`related`, `more`, `transient_name`, `transient_filters`).
 */
export function dashboardView(d: XDashboard, ctx: ViewContext) {
  const placed = layout(d, ctx.paired);
  const dashcards = placed.map((item, i) => {
    const id = -(i + 1);
    const common = {
      id,
      dashboard_id: null,
      action_id: null,
      dashboard_tab_id: null,
      ...item.at,
      inline_parameters: [],
      series: [],
      entity_id: null,
      created_at: null,
      updated_at: null,
    };
    if (item.kind === 'text')
      return { ...common, card_id: null, card: null, parameter_mappings: [], visualization_settings: TEXT_VS(item.text) };
    const mapped = item.card.datasetQuery.query['source-table'] === ctx.parameterSource ? d.parameters.map((p) => mapping(p, id)) : [];
    return { ...common, card_id: id, card: cardView(item.card, id, ctx.creatorId), parameter_mappings: mapped, visualization_settings: {} };
  });
  const paramFields: Record<string, unknown> = {};
  for (const p of d.parameters) {
    if (p.field.id !== null)
      paramFields[p.field.id] = {
        id: p.field.id,
        table_id: p.field.tableId,
        name: p.field.name,
        display_name: p.field.displayName,
        base_type: p.field.baseType,
        semantic_type: p.field.semanticType,
      };
  }
  return {
    id: null,
    name: d.name,
    description: d.description,
    parameters: d.parameters.map(({ field: _f, ...p }) => p),
    collection_id: null,
    collection_position: null,
    cache_ttl: null,
    archived: false,
    archived_directly: false,
    width: 'fixed',
    auto_apply_filters: true,
    enable_embedding: false,
    embedding_params: null,
    public_uuid: null,
    made_public_by_id: null,
    creator_id: ctx.creatorId,
    entity_id: null,
    view_count: 0,
    last_viewed_at: null,
    created_at: null,
    updated_at: null,
    points_of_interest: null,
    caveats: null,
    show_in_getting_started: false,
    position: null,
    initially_published_at: null,
    collection_authority_level: null,
    collection: null,
    can_write: false,
    can_restore: false,
    can_delete: false,
    dashcards,
    tabs: [],
    param_fields: paramFields,
    param_values: null,
    'last-edit-info': null,
    moderation_reviews: [],
    transient_name: ctx.transientName,
    transient_filters: ctx.transientFilters,
    related: ctx.related,
    more: ctx.moreUrl,
  };
}

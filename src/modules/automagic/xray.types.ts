import type { RowShape } from '../../common/database/row-values';

/** The metadata rows the automagic repository reads (tables and fields), as the builder starts from them. */
export interface XTableRow {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
  display_name: string;
  description: string | null;
  entity_type: string | null;
  visibility_type: string | null;
  estimated_row_count: number | null;
}

export const X_TABLE_ROW_SHAPE: RowShape = { numbers: ['id', 'db_id', 'estimated_row_count'] };

export interface XFieldRow {
  id: number;
  table_id: number;
  name: string;
  display_name: string;
  base_type: string;
  effective_type: string | null;
  semantic_type: string | null;
  fk_target_field_id: number | null;
  visibility_type: string;
  fingerprint: string | null;
  position: number;
}

export const X_FIELD_ROW_SHAPE: RowShape = { numbers: ['id', 'table_id', 'fk_target_field_id', 'position'] };

/** A field as the x-ray builder sees it: a table's field, a linked table's field, or a column of a saved question. */
export interface XField {
  /** Null for a column of a saved question or model used as the source (referred to by name). */
  id: number | null;
  name: string;
  displayName: string;
  baseType: string;
  semanticType: string | null;
  tableId: number | null;
  position: number;
  /** A field of a linked table: the foreign key of the source it is reached through (`source-field`). */
  via: number | null;
  /** Distinct values seen by the fingerprint, when known. */
  distinct: number | null;
  /** A numeric field with a fingerprint range: it can be binned. */
  binnable: boolean;
  hidden: boolean;
}

/** What an x-ray is about, resolved from the entity in the URL: its source, filter and fields. */
export interface XRoot {
  /** The entity kind and id as in the URL (`table`, `12`), for links. */
  entity: string;
  entityId: string;
  /** `/auto/dashboard/table/12`: the client's URL of this x-ray. */
  url: string;
  /** Shown in titles (`Orders`, `Big orders`, `Total`). */
  sourceName: string;
  /** The underlying table's display name (`Orders`). */
  tableName: string;
  databaseId: number;
  /** The table the source is, or is built on; null for a saved question over something else. */
  tableId: number | null;
  /** `source-table` of the cards: a table id or `card__<id>`. */
  sourceTable: number | string;
  /** Filter every card of this x-ray keeps (a segment's, a question's, a cell's). */
  filter: unknown[] | null;
  /** The source's own fields, then the fields of the tables its foreign keys point at (`via` set). */
  fields: XField[];
  /** A field x-ray: the field. */
  field?: XField;
  /** A metric x-ray: the metric's aggregation clause. */
  metric?: unknown[];
  /** A cell or detail x-ray: what the title says about it (`where Category is Gizmo`). */
  qualifier?: string;
}

/** A card of an x-ray before layout. */
export interface XCard {
  /** The template card and the candidate it was made for: pairs the two sides of a comparison. */
  key: string;
  section: number;
  title: string;
  display: string;
  score: number;
  datasetQuery: { database: number; type: 'query'; query: Record<string, unknown> };
  settings: Record<string, unknown>;
  tableIds: number[];
}

export interface XParameter {
  id: string;
  name: string;
  slug: string;
  type: string;
  sectionId: string;
  field: XField;
}

/** An x-ray root as resolved from the URL, with what the related links need. */
export interface Resolved {
  root: XRoot;
  prefix: 'table' | 'field' | 'metric';
  /** The tables involved (the source's and the linked ones), by id. */
  tables: Map<number, XTableRow>;
  mayQuery: (tableId: number) => boolean;
}

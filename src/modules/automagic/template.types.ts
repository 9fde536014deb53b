/** How a template names a field: by semantic type and/or base type (each "is a kind of"), with a score. */
export interface DimensionMatcher {
  semantic?: string;
  base?: string;
  /** Field names (any case) that earn a bonus among the fields this matcher takes. */
  names?: string[];
  score: number;
  /** Fields of the tables the source links to through a foreign key may match too (with a smaller score). */
  linked?: boolean;
}

/** A breakout of a card: a dimension, bucketed by a temporal unit or binned. */
export interface BreakoutSpec {
  dim: string;
  unit?: string;
  binning?: boolean;
}

export interface CardSpec {
  id: string;
  title: string;
  display: string;
  /** `["count"]`, `["sum", "Dim"]`, ...; `["metric"]` is the metric of a metric x-ray. */
  aggregation: unknown[][];
  breakout?: BreakoutSpec[];
  /** A filter where `{"dim": "Dim"}` stands for the dimension's field. */
  filter?: unknown[];
  order?: 'asc' | 'desc';
  limit?: number;
  score: number;
  /** One card per candidate field of the first breakout's dimension (or of the aggregated one), at most this many. */
  each?: number;
  /** Only for fields that carry a time of day. */
  requires_time?: boolean;
  settings?: Record<string, unknown>;
}

export interface SectionSpec {
  title: string;
  cards: CardSpec[];
}

export interface Template {
  name: string;
  title: string;
  description: string;
  /** Dimensions that must all find a field for the template to apply. */
  requires: string[];
  /** Field templates: the kind of field they are for. */
  applies_to?: string;
  dimensions: Record<string, DimensionMatcher[]>;
  sections: SectionSpec[];
}

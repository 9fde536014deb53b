import { MessageError } from '../../common/errors/api-errors';

/** A dashboard parameter as stored in `report_dashboard.parameters`. */
export interface DashboardParameter {
  id: string;
  type?: string;
  slug?: string;
  default?: unknown;
  values_source_type?: unknown;
  values_source_config?: unknown;
  values_query_type?: unknown;
  [key: string]: unknown;
}

/** A dashcard's mapping of a dashboard parameter onto one of its cards (the card or a series card). */
export interface ParameterMapping {
  parameter_id: string;
  card_id?: number | null;
  target: unknown;
}

/** A value sent for a dashboard parameter: `{id, value}` (type, target and slug are the dashboard's to say). */
export interface SentValue {
  id?: unknown;
  value?: unknown;
  [key: string]: unknown;
}

/** A parameter as the card query takes it. */
export type CardParameter = {
  id: string;
  type: string;
  target: unknown;
  value: unknown;
  slug?: string;
};

/**
 * The dashboard's parameter values mapped onto one card of a dashcard (Metabase's
 * `resolve-params-for-query`): each value sent, or the dashboard parameter's default when none is sent, becomes one
 * card parameter per mapping of that parameter onto that card, with the dashboard parameter's type. A value for a
 * parameter the dashboard does not have is refused. Parameters without a value, or not mapped onto the card, drop out.
 */
export function mapParameters(
  dashboardId: number,
  parameters: DashboardParameter[],
  mappings: ParameterMapping[],
  dashcardCardId: number | null,
  cardId: number,
  sent: SentValue[] | null | undefined,
): CardParameter[] {
  const byId = new Map(parameters.map((p) => [p.id, p]));
  const values = new Map<string, unknown>();
  for (const s of sent ?? []) {
    const id = s && typeof s === 'object' ? s.id : undefined;
    if (typeof id !== 'string' || !byId.has(id)) {
      throw new MessageError(`Dashboard ${dashboardId} does not have a parameter with the ID ${JSON.stringify(id ?? null)}.`, 400);
    }
    values.set(id, s.value);
  }
  for (const p of parameters) if (!values.has(p.id) && hasValue(p.default)) values.set(p.id, p.default);
  const out: CardParameter[] = [];
  for (const m of mappings) {
    // A mapping without card_id is one of the dashcard's own card (as older dashboards stored them).
    const target = m.card_id ?? dashcardCardId;
    if (target !== cardId || !values.has(m.parameter_id)) continue;
    const value = values.get(m.parameter_id);
    if (!hasValue(value)) continue;
    const p = byId.get(m.parameter_id);
    if (!p) continue;
    out.push({
      id: p.id,
      type: typeof p.type === 'string' ? p.type : 'category',
      target: m.target,
      value,
      ...(typeof p.slug === 'string' ? { slug: p.slug } : {}),
    });
  }
  return out;
}

export function hasValue(v: unknown): boolean {
  return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && v !== '';
}

import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';

/** How an embedded object lets each parameter (by slug) be set: `enabled`, `locked` or `disabled`. */
export type EmbeddingRule = 'enabled' | 'locked' | 'disabled';
export type EmbeddingParams = Record<string, EmbeddingRule>;

const RULES: readonly unknown[] = ['enabled', 'locked', 'disabled'];

export function isEmbeddingParams(v: unknown): v is EmbeddingParams {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => RULES.includes(x));
}

/** A value that counts as given: anything but a missing, null or blank-string value (an empty list is given: "no filter"). */
export function isGiven(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
}

/**
 * Metabase's rules for a signed embed's `embedding_params`, as it checks them (`validate-and-merge-params`), on the slugs given
 * a value by the token and by the viewer:
 * - `disabled`: neither may set it;
 * - `enabled`: either may, not both;
 * - `locked`: the token must, the viewer may not;
 * - a slug the whitelist does not list: unknown.
 * Answers the merged slug -> value map (the token's values win; both can only meet on no slug after the checks).
 */
export function mergeEmbedParams(
  whitelist: EmbeddingParams | null | undefined,
  token: Record<string, unknown>,
  viewer: Record<string, unknown>,
): Record<string, unknown> {
  const rules = whitelist ?? {};
  const fromToken = new Set(Object.keys(token).filter((k) => isGiven(token[k])));
  const fromViewer = new Set(Object.keys(viewer).filter((k) => isGiven(viewer[k])));
  for (const [slug, rule] of Object.entries(rules)) {
    if (rule === 'disabled' && (fromToken.has(slug) || fromViewer.has(slug)))
      throw new MessageError(`You're not allowed to specify a value for ${slug}.`);
    if (rule === 'enabled' && fromToken.has(slug) && fromViewer.has(slug))
      throw new MessageError(`You can't specify a value for ${slug} if it's already set in the JWT.`);
    if (rule === 'locked') {
      if (!fromToken.has(slug)) throw new MessageError(`You must specify a value for ${slug} in the JWT.`);
      if (fromViewer.has(slug)) throw new MessageError(`You can only specify a value for ${slug} in the JWT.`);
    }
  }
  for (const slug of [...fromToken, ...fromViewer]) {
    if (!Object.prototype.hasOwnProperty.call(rules, slug)) throw new MessageError(`Unknown parameter ${slug}.`);
  }
  const merged: Record<string, unknown> = {};
  for (const slug of fromViewer) merged[slug] = viewer[slug];
  for (const slug of fromToken) merged[slug] = token[slug];
  return merged;
}

/** Query-string keys that are options of the endpoint (or Metabase's frontend's load tag), never parameter slugs. */
const RESERVED = new Set(['parameters', 'format_rows', 'pivot_results', 'dashboard_load_id']);

/**
 * A viewer's values from the query string: `?slug=value` (repeated for several values), and/or `parameters`, a JSON
 * map of slug -> value. A blank value is no value. Values stay strings: the query engine types a parameter's values
 * after its field (Metabase's `normalize-query-params` turns `"12"` into 12 here, which a text column would then refuse).
 */
export function viewerValues(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key)) continue;
    out[key] = Array.isArray(raw) ? (raw.length ? raw.map(readValue) : null) : readValue(raw);
  }
  const json = query.parameters;
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = typeof json === 'string' ? JSON.parse(json) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === null || parsed === undefined || typeof parsed !== 'object' || Array.isArray(parsed))
      throw ValidationError.of('parameters', MSG.jsonString, json);
    for (const [slug, v] of Object.entries(parsed as Record<string, unknown>)) out[slug] = v;
  }
  return out;
}

function readValue(v: unknown): unknown {
  return typeof v === 'string' && v.trim() === '' ? null : v;
}

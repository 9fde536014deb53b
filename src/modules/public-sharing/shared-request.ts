import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';

/** `parameters` as a `json-str` query parameter: a JSON list (absent or blank: none). */
export function parametersParam(raw: unknown, name = 'parameters'): unknown[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw !== 'string') throw ValidationError.of(name, MSG.jsonString, raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw ValidationError.of(name, MSG.jsonString, raw);
  }
  if (!Array.isArray(parsed) || parsed.some((p) => !p || typeof p !== 'object' || Array.isArray(p))) throw ValidationError.of(name, MSG.jsonString, raw);
  return parsed;
}

/** A `str+` parameter. */
export function nonBlank(name: string, v: unknown): string {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
}

/** An optional `int+` query parameter. */
export function optionalPositiveInt(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[1-9]\d{0,8}$/.test(v)) throw ValidationError.of(name, MSG.positiveInt, v);
  return Number(v);
}

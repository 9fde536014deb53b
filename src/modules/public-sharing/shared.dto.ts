import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { MSG } from '../../common/validation/messages';

const isMap = (p: unknown) => p !== null && typeof p === 'object' && !Array.isArray(p);

/** A `json-str` query parameter parsed (blank: an empty list); what does not parse to a value stays as sent, to be refused. */
function parsedJson(raw: unknown): unknown {
  if (raw === '') return [];
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) ?? raw;
  } catch {
    return raw;
  }
}

/** `?parameters=` of the public query endpoints: a JSON list of maps, `[{id, value}]` (absent or blank: none). */
export class SharedQueryParams {
  @IsOptional()
  @Transform(({ value }) => parsedJson(value))
  @ValidateBy({
    name: 'isJsonMapList',
    validator: { validate: (v) => Array.isArray(v) && v.every(isMap), defaultMessage: () => MSG.jsonString },
  })
  parameters?: Array<Record<string, unknown>>;
}

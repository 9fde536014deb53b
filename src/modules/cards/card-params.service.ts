import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError } from '../../common/errors/api-errors';
import { ParameterValuesService, type ParameterLike, type ParameterValues } from '../dataset/parameter-values.service';
import { CardAccessService } from './card-access.service';
import { legacyQuery } from './card-query';
import { parseJson } from '../../common/database/stored-json';

/**
 * GET /api/card/:card-id/params/:param-key/values and .../search/:query: the values of one of the card's
 * parameters, from where the parameter says (`values_source_type`): a static list, a column of another card, or
 * the field it filters on (for a native field filter, the template tag's field). The dataset module's
 * ParameterValuesService does the work, with its checks and its 1,000 cap.
 */
@Injectable()
export class CardParamsService {
  constructor(
    private readonly access: CardAccessService,
    private readonly values: ParameterValuesService,
  ) {}

  async valuesOf(caller: AuthUser, cardId: number, paramKey: string, query?: string): Promise<ParameterValues> {
    const { row } = await this.access.readable(caller, cardId);
    const params = parseJson<Array<Record<string, unknown>>>(row.parameters, []);
    const param = params.find((p) => p && p.id === paramKey);
    if (!param) throw new MessageError(`Card ${cardId} does not have a parameter with the ID "${paramKey}".`);
    const like = param as unknown as ParameterLike;
    if (like.values_source_type === 'static-list' || like.values_source_type === 'card') return this.values.values(caller, like, undefined, query);
    const fieldId = targetField(param.target, parseJson<unknown>(row.dataset_query, null));
    if (fieldId === null) return { values: [], has_more_values: false };
    return this.values.values(caller, like, [fieldId], query);
  }
}

/** The field a parameter target filters on: `["dimension", ["field", id, ...]]`, or a field filter tag's dimension. */
export function targetField(target: unknown, sent: unknown): number | null {
  if (!Array.isArray(target) || target[0] !== 'dimension' || !Array.isArray(target[1])) return null;
  const ref = target[1] as unknown[];
  if (ref[0] === 'field' && typeof ref[1] === 'number') return ref[1];
  if (ref[0] === 'field' && typeof ref[2] === 'number') return ref[2];
  if (ref[0] !== 'template-tag') return null;
  const name = typeof ref[1] === 'string' ? ref[1] : (ref[1] as { 'id'?: string } | undefined)?.id;
  const q = legacyQuery(sent);
  const tags = (q?.native?.['template-tags'] ?? {}) as Record<string, { dimension?: unknown[]; id?: string }>;
  const tag = Object.entries(tags).find(([k, t]) => k === name || t.id === name)?.[1];
  const dim = tag?.dimension;
  return Array.isArray(dim) && dim[0] === 'field' && typeof dim[1] === 'number' ? dim[1] : null;
}

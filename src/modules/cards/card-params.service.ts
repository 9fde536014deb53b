import { Injectable } from '@nestjs/common';
import type { Reader } from '../../common/auth/shared-grant';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { type ParameterLike, type ParameterValues, ParameterValuesService } from '../dataset';
import { FieldRemappingService } from '../fields';
import { CardAccessService } from './card-access.service';
import { legacyQuery } from './card-query';
import { parseJson } from '../../common/database/stored-json';

/**
 * GET /api/card/:card-id/params/:param-key/values and .../search/:query: the values of one of the card's
 * parameters, from where the parameter says (`values_source_type`): a static list, a column of another card, or
 * the field it filters on (for a native field filter, the template tag's field). The dataset module's
 * ParameterValuesService does the work, with its checks and its 1,000 cap. A shared card's look-ups come with its
 * grant, which reads only that card.
 */
@Injectable()
export class CardParamsService {
  constructor(
    private readonly access: CardAccessService,
    private readonly values: ParameterValuesService,
    private readonly remapping: FieldRemappingService,
  ) {}

  async valuesOf(caller: Reader, cardId: number, paramKey: string, query?: string): Promise<ParameterValues> {
    const { param, fieldId } = await this.parameter(caller, cardId, paramKey);
    const like = param as unknown as ParameterLike;
    if (like.values_source_type === 'static-list' || like.values_source_type === 'card')
      return this.values.values(caller, like, undefined, query);
    if (fieldId === null) return { values: [], has_more_values: false };
    return this.values.values(caller, like, [fieldId], query);
  }

  /**
   * GET /api/card/:id/params/:param-key/remapping?value=...: `[value, display]` or `[value]` (Metabase's
   * card-param-remapped-value): the label of a static list's entry, else the display value of the parameter's field
   * (FieldRemappingService); a card source gives no label.
   */
  async remappedValue(caller: Reader, cardId: number, paramKey: string, value: string): Promise<unknown[]> {
    const { param, fieldId } = await this.parameter(caller, cardId, paramKey);
    const like = param as unknown as ParameterLike;
    if (like.values_source_type === 'static-list') return staticListLabel(like, value);
    if (like.values_source_type === 'card' || fieldId === null) return [value];
    return this.remapping.remappedValue(caller, fieldId, value);
  }

  /** The card's parameter `paramKey` (400 when it has none) and the field it filters on, if any. */
  private async parameter(
    caller: Reader,
    cardId: number,
    paramKey: string,
  ): Promise<{ param: Record<string, unknown>; fieldId: number | null }> {
    const { row } = await this.access.readable(caller, cardId);
    const params = parseJson<Array<Record<string, unknown>>>(row.parameters, []);
    const param = params.find((p) => p && p.id === paramKey);
    if (!param) throw new MessageError(`Card ${cardId} does not have a parameter with the ID "${paramKey}".`);
    return { param, fieldId: targetField(param.target, parseJson<unknown>(row.dataset_query, null)) };
  }
}

/** A static list's `[value, label]` entry for `value` (compared as text), else `[value]`. */
export function staticListLabel(param: ParameterLike, value: string): unknown[] {
  const list = param.values_source_config?.values;
  const hit = Array.isArray(list)
    ? list.find((e) => Array.isArray(e) && e.length === 2 && e[0] !== null && String(e[0]) === value)
    : undefined;
  return (hit as unknown[] | undefined) ?? [value];
}

/** The field a parameter target filters on: `["dimension", ["field", id, ...]]`, or a field filter tag's dimension. */
export function targetField(target: unknown, sent: unknown): number | null {
  if (!Array.isArray(target) || target[0] !== 'dimension' || !Array.isArray(target[1])) return null;
  const ref = target[1] as unknown[];
  if (ref[0] === 'field' && typeof ref[1] === 'number') return ref[1];
  if (ref[0] === 'field' && typeof ref[2] === 'number') return ref[2];
  if (ref[0] !== 'template-tag') return null;
  const name = typeof ref[1] === 'string' ? ref[1] : (ref[1] as { id?: string } | undefined)?.id;
  const q = legacyQuery(sent);
  const tags = (q?.native?.['template-tags'] ?? {}) as Record<string, { dimension?: unknown[]; id?: string }>;
  const tag = Object.entries(tags).find(([k, t]) => k === name || t.id === name)?.[1];
  const dim = tag?.dimension;
  return Array.isArray(dim) && dim[0] === 'field' && typeof dim[1] === 'number' ? dim[1] : null;
}

/** The `value` query parameter of the params remapping endpoints: one string (Metabase's `:string`; blank is a value). */
export function remappingValue(v: unknown): string {
  if (typeof v !== 'string') throw ValidationError.of('value', MSG.string, v);
  return v;
}

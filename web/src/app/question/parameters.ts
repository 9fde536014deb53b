import type { ParameterValue } from '../api/dataset';
import { variableTags, type TemplateTag, type TemplateTags } from './sql/template-tags';

/** What the filter bar holds per tag name: the text the person typed (empty = no value). */
export type TagValues = Record<string, string>;

/** The parameter type Metabase sends for a tag: a field filter's widget type, else the variable's kind. */
export function parameterType(tag: TemplateTag): string {
  if (tag.type === 'dimension') return tag['widget-type'] ?? 'category';
  if (tag.type === 'number') return 'number/=';
  if (tag.type === 'date') return 'date/single';
  return 'category';
}

/**
 * The `parameters` of a native run (Metabase's shape): a variable's `["variable", ["template-tag", name]]`, a field
 * filter's `["dimension", ["template-tag", name]]` with its values as a list. Tags without a value are left out (the
 * server then uses the tag's default, or drops `[[...]]` and the field filter's condition).
 */
export function toParameters(tags: TemplateTags, values: TagValues): ParameterValue[] {
  const out: ParameterValue[] = [];
  for (const tag of variableTags(tags)) {
    const raw = values[tag.name]?.trim();
    if (!raw) continue;
    const ref = ['template-tag', tag.name];
    if (tag.type === 'dimension') {
      const type = parameterType(tag);
      const many = raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      const typed = type.startsWith('number') ? many.map(Number) : many;
      out.push({ id: tag.id, type, target: ['dimension', ref], value: type.startsWith('date') ? raw : typed });
    } else {
      out.push({ id: tag.id, type: parameterType(tag), target: ['variable', ref], value: tag.type === 'number' ? Number(raw) : raw });
    }
  }
  return out;
}

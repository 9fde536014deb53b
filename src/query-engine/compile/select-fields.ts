import type { Ref } from '../mbql/types';
import type { LevelScope, SelectItem } from './level-scope';

/**
 * The SELECT list of a level that neither aggregates nor breaks out: its `fields` (else every column of its source
 * and then its expressions), then each join's `fields` ("all" its source's columns, "none", or a list).
 */
export function selectedFields(level: LevelScope): SelectItem[] {
  const { query: q, path, fields } = level;
  const out: SelectItem[] = [];
  level.clause = 'fields';
  const explicit = Array.isArray(q.fields) && q.fields.length > 0;
  const refs: Ref[] = explicit ? q.fields! : fields.defaultRefs(fields.base, null);
  for (const [i, ref] of refs.entries()) {
    const r = level.within(explicit ? `${path}.fields[${i}]` : `${path}.fields`, () => level.resolveRef(ref));
    out.push({ sql: r.sql, col: r.col, direct: r.direct });
  }
  if (!explicit && q.expressions) {
    for (const name of Object.keys(q.expressions)) {
      const r = level.resolveRef(['expression', name]);
      out.push({ sql: r.sql, col: r.col, direct: false });
    }
  }
  for (const [j, { join, source }] of [...fields.joins.values()].entries()) {
    level.clause = 'joins';
    const joinFields = join.fields ?? 'none';
    // validate.ts: "all", "none" or a list.
    const refs: Ref[] = joinFields === 'all' ? fields.defaultRefs(source, join.alias) : Array.isArray(joinFields) ? joinFields : [];
    for (const [i, ref] of refs.entries()) {
      const at = Array.isArray(joinFields) ? `${path}.joins[${j}].fields[${i}]` : `${path}.joins[${j}].fields`;
      const r = level.within(at, () => level.resolveRef(ref));
      out.push({ sql: r.sql, col: r.col, direct: r.direct });
    }
  }
  return out;
}

import { levelPath } from '../mbql/places';
import type { InnerQuery, Join } from '../mbql/types';
import { trimTrailingSemicolons } from '../sql-text';
import type { CompiledColumn } from './contract';
import { QueryCompileError } from './contract';
import type { Source } from './fields';
import type { LevelScope } from './level-scope';
import { scanSql } from '../execute/drivers/sql-scan';
import type { SqlParam } from '../types';
import { where } from './params';

/**
 * The FROM and JOIN clauses of one query level. Its source and each join's is a table, a native card's SQL, or a
 * source query compiled as a subquery; each is registered with the level's FieldResolver (its `base`, its `joins`),
 * against which the level's references then resolve.
 */
export class LevelSources {
  /** The FROM text of the level's source (key null) and of each join (key: its alias). */
  private readonly sql = new Map<string | null, string>();

  constructor(private readonly level: LevelScope) {}

  /** `at`: the path of the level (`query`) or join (`query.joins[0]`) whose source this is. */
  source(q: InnerQuery, alias: string | null, depth: number, at: string): Source {
    const { d, fields } = this.level;
    const clause = alias === null ? 'source-table' : `joins`;
    if (q['source-query'] !== undefined) {
      const inner = this.level.subquery(q['source-query'], levelPath(q['source-query'], at, 'source-query'), depth + 1);
      this.sql.set(alias, `(${inner.sql})`);
      return { kind: 'query', qualifier: d.quoteIdent(alias ?? 'source'), columns: inner.columns, alias };
    }
    if (typeof q.native === 'string') {
      // A native card as a source: its own SQL, without a trailing `;`, on its own line (it may end in a comment).
      const native = trimTrailingSemicolons(q.native);
      if (!native) throw new QueryCompileError(`The native source query is empty${where(clause)}.`, clause);
      this.sql.set(alias, `(${q['native-params'] ? this.bound(native, q['native-params']) : native}\n)`);
      const known = q['native-columns'];
      const columns: CompiledColumn[] | null = known?.length
        ? known.map((c) => ({
            name: c.name,
            display_name: c.display_name ?? c.name,
            source: 'native',
            base_type: c.base_type,
            effective_type: c.base_type,
            semantic_type: null,
            field_ref: ['field', c.name, { 'base-type': c.base_type }],
          }))
        : null;
      return { kind: 'query', qualifier: d.quoteIdent(alias ?? 'source'), columns, alias };
    }
    const id = q['source-table'];
    if (typeof id === 'string')
      throw new QueryCompileError(`Source ${JSON.stringify(id)} should have been resolved before compiling${where(clause)}.`, clause);
    // validate.ts: a level without a source query has a table id.
    const table = this.level.within(`${at}.source-table`, () => fields.tableMeta(id as number, clause));
    this.sql.set(alias, fields.tableName(table));
    return { kind: 'table', table, qualifier: alias === null ? fields.tableName(table) : d.quoteIdent(alias), alias };
  }

  /**
   * A native source with bound values (a row security policy's SQL question, its tags filled in): each of its `?`
   * placeholders, found as the driver finds them (not inside literals or comments; only the Postgres driver reads
   * `??` as a literal `?`), becomes the level's own bound value, so the values stay in step with the rest's.
   */
  private bound(native: string, params: SqlParam[]): string {
    const engine = this.level.d.engine;
    const marks = scanSql(native, engine).questionMarks;
    let out = '';
    let last = 0;
    let next = 0;
    for (let k = 0; k < marks.length; k++) {
      if (engine === 'postgres' && marks[k + 1] === marks[k] + 1) {
        k++;
        continue;
      }
      if (next >= params.length) throw new QueryCompileError('The native source query has more placeholders than values.');
      out += native.slice(last, marks[k]) + this.level.binder.bind(params[next++]);
      last = marks[k] + 1;
    }
    if (next !== params.length) throw new QueryCompileError('The native source query has fewer placeholders than values.');
    return out + native.slice(last);
  }

  /** The FROM clause's source (after `FROM`): the level's source, once `source()` has registered it as `base`. */
  from(): string {
    const s = this.level.fields.base;
    if (s.kind === 'query') return `${this.sql.get(null)} AS ${s.qualifier}`;
    return this.sql.get(null)!;
  }

  /** The JOIN clauses: every join's source registered first, so that a condition may name any join. */
  joins(joins: Join[] | undefined, depth: number): string[] {
    if (joins === undefined || joins === null) return [];
    const { d, fields } = this.level;
    this.level.clause = 'joins';
    // validate.ts: a list of maps with distinct aliases, known strategies and a condition each.
    joins.forEach((join, i) => {
      const at = `${this.level.path}.joins[${i}]`;
      const strategy = join.strategy ?? 'left-join';
      const source = this.level.within(at, () => {
        d.checkJoin(strategy, join.alias);
        return this.source(join as InnerQuery, join.alias, depth, at);
      });
      fields.joins.set(join.alias, { join, source, strategy });
    });
    const out: string[] = [];
    for (const [i, { join, strategy }] of [...fields.joins.values()].entries()) {
      this.level.clause = 'joins';
      const on = this.level.placedFilter(join.condition, `${this.level.path}.joins[${i}].condition`);
      out.push(`${d.joinKeyword(strategy)} ${this.sql.get(join.alias)} AS ${d.quoteIdent(join.alias)} ON ${on}`);
    }
    return out;
  }
}

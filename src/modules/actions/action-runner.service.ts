import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { parseJson } from '../../common/database/stored-json';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { Engine } from '../../query-engine/execute/drivers/driver';
import { openDetails, quoteIdent, tableRef, WarehouseConnections } from '../warehouse';
import { bindable, bindTemplateTags, slugify, type WriteStatement } from './action-sql';
import { runWrite } from './action-writer';
import { ActionsRepository, type ActionDatabase, type ActionRow, type ActionTable, type TableColumn } from './actions.repository';
import { assertCreatable, assertUpdatable, OPEN, scopeCondition, type RowScope } from './row-scope';
import { exposedColumns, formSettings, implicitParameters, type ActionParameter, type ImplicitParameter } from './implicit-parameters';

export type { ActionParameter } from './implicit-parameters';

export const ACTIONS_DISABLED = 'Actions are not enabled.';
const WRITABLE_ENGINES: readonly string[] = ['sqlite', 'postgres', 'mysql'];
const NUMERIC = new Set(['type/Integer', 'type/BigInteger', 'type/Float', 'type/Decimal', 'type/Number']);

/** Clojure's printing of a set of strings, as Metabase's messages show them. */
const setOf = (xs: string[]) => `#{${xs.map((x) => JSON.stringify(x)).join(' ')}}`;

const parseList = (s: string | null): ActionParameter[] => {
  try {
    const v: unknown = JSON.parse(s ?? '[]');
    return Array.isArray(v)
      ? (v.filter((p) => p && typeof p === 'object' && typeof (p as ActionParameter).id === 'string') as ActionParameter[])
      : [];
  } catch {
    return [];
  }
};

/** The template tag a parameter's target names (`["variable", ["template-tag", "x"]]`), if any. */
export function targetTag(target: unknown): string | null {
  if (!Array.isArray(target) || target.length < 2) return null;
  const inner: unknown = target[1];
  return Array.isArray(inner) && inner[0] === 'template-tag' && typeof inner[1] === 'string' ? inner[1] : null;
}

/**
 * Runs actions on their warehouse: a query action's SQL with its template tags bound, or an implicit action's row
 * write on the model's table by primary key. Every write is one transaction with bound parameters (action-writer.ts);
 * the database's refusal is a 400 with its message. Whoever calls has checked access; this checks that the database
 * has actions enabled and that the values name the action's parameters.
 */
@Injectable()
export class ActionRunner {
  constructor(
    private readonly repo: ActionsRepository,
    private readonly connections: WarehouseConnections,
    private readonly secrets: SecretBox,
  ) {}

  /** The database the action writes to (query: its own; implicit: the model's table's), or null when it is gone. */
  async databaseOf(action: ActionRow): Promise<ActionDatabase | null> {
    if (action.type === 'query') return action.database_id === null ? null : this.repo.database(action.database_id);
    const table = await this.tableOf(action);
    return table ? this.repo.database(table.db_id) : null;
  }

  /** 400 unless the database can run actions and has them enabled (Metabase's `database-enable-actions`). */
  assertEnabled(db: ActionDatabase): void {
    if (!WRITABLE_ENGINES.includes(db.engine))
      throw new MessageError(`${db.engine} Database ${db.id} ${JSON.stringify(db.name)} does not support actions.`);
    if (db.settings['database-enable-actions'] !== true) throw new MessageError(ACTIONS_DISABLED);
  }

  enabled(db: ActionDatabase | null): boolean {
    return db !== null && WRITABLE_ENGINES.includes(db.engine) && db.settings['database-enable-actions'] === true;
  }

  async tableOf(action: Pick<ActionRow, 'model_id'>): Promise<ActionTable | null> {
    const model = await this.repo.model(action.model_id);
    return model && model.table_id !== null ? this.repo.table(model.table_id) : null;
  }

  /** The action's parameters: as stored for query actions; for implicit ones, one per column the model exposes. */
  async parameters(action: ActionRow): Promise<ActionParameter[]> {
    if (action.type !== 'implicit') return parseList(action.parameters);
    return ((await this.implicitShape(action))?.params ?? []).map((p) => p.parameter);
  }

  /**
   * An implicit action's table and its parameters with their columns: only the columns the model's result shows
   * (its `result_metadata`, as Metabase derives them), never a sensitive or retired one. Null when the model or its
   * table is gone.
   */
  async implicitShape(action: ActionRow): Promise<{ table: ActionTable; params: ImplicitParameter[] } | null> {
    const model = await this.repo.model(action.model_id);
    const table = model && model.table_id !== null ? await this.repo.table(model.table_id) : null;
    if (!model || !table) return null;
    const exposed = exposedColumns(table, parseJson<unknown>(model.result_metadata, null));
    return { table, params: implicitParameters(action.kind, exposed, parseList(action.parameters)) };
  }

  /**
   * Runs the action with values by parameter id: `{"rows-affected": n}` or the implicit kinds' answers. `scope`: the
   * rows of the table an implicit action may write for the caller (ActionsService.assertMayRun).
   */
  async execute(action: ActionRow, values: Record<string, unknown>, scope: RowScope = OPEN): Promise<Record<string, unknown>> {
    if (action.type === 'http') throw new MessageError('HTTP actions are not supported.');
    const db = await this.databaseOf(action);
    if (!db) throw new NotFoundError();
    this.assertEnabled(db);
    if (action.type === 'query') return this.executeQuery(action, db, values);
    return this.executeImplicit(action, db, values, scope);
  }

  private async executeQuery(action: ActionRow, db: ActionDatabase, sent: Record<string, unknown>): Promise<Record<string, unknown>> {
    const dq = JSON.parse(action.dataset_query ?? '{}') as {
      native?: { query?: unknown; 'template-tags'?: Record<string, { 'display-name'?: string; type?: string }> };
    };
    const sql = dq.native?.query;
    if (typeof sql !== 'string' || sql.trim() === '') throw new MessageError('The query is empty.');
    const tags = dq.native?.['template-tags'] ?? {};
    const params = parseList(action.parameters);
    // Without stored parameters, the template tags are the parameters (by name).
    const destinations = params.length
      ? params
      : Object.keys(tags).map((name) => ({ id: name, target: ['variable', ['template-tag', name]] }));
    const values = this.accepted(action, sent, destinations);
    const byTag = new Map<string, unknown>();
    for (const p of destinations) {
      const tag = targetTag(p.target) ?? p.id;
      if (values[p.id] === undefined) continue;
      const v = values[p.id];
      byTag.set(tag, tags[tag]?.type === 'number' && typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);
    }
    const statement = bindTemplateTags(sql, byTag, (tag) => tags[tag]?.['display-name'] ?? tag);
    const [outcome] = await this.write(db, [statement]);
    return { 'rows-affected': outcome.changes };
  }

  private async executeImplicit(
    action: ActionRow,
    db: ActionDatabase,
    sent: Record<string, unknown>,
    scope: RowScope,
  ): Promise<Record<string, unknown>> {
    const shape = await this.implicitShape(action);
    if (!shape) throw new NotFoundError();
    const { table, params } = shape;
    const engine = db.engine as Engine;
    const values = this.accepted(
      action,
      sent,
      params.map((p) => p.parameter),
    );
    const ref = tableRef(engine, table.schema, table.name);
    const q = (name: string) => quoteIdent(engine, name);
    // Only the declared parameters' columns are written: a column the model does not show is never touched.
    const given = params
      .filter(({ parameter }) => values[parameter.id] !== undefined)
      .map(({ col, parameter }) => ({ col, value: this.coerce(col, values[parameter.id]) }));
    if (action.kind === 'row/create') {
      assertCreatable(scope, given);
      return { 'created-row': await this.create(db, table, given) };
    }
    const pks = this.primaryKey(table, values);
    // A row the caller's policies do not show is one that does not exist for them.
    const visible = scopeCondition(engine, scope);
    const where = [...pks.map(({ col }) => `${q(col.name)} = ?`), ...(visible ? [visible.sql] : [])].join(' AND ');
    const keyParams = [...pks.map(({ value }) => bindable(value)), ...(visible?.params ?? [])];
    if (action.kind === 'row/delete') {
      const [outcome] = await this.write(
        db,
        [{ sql: `DELETE FROM ${ref} WHERE ${where}`, params: keyParams }],
        "Sorry, the row you're trying to delete doesn't exist",
      );
      return { 'rows-deleted': [outcome.changes] };
    }
    const sets = given.filter(({ col }) => !col.pk);
    if (sets.length === 0) return { 'rows-updated': [0] };
    assertUpdatable(scope, sets);
    const [outcome] = await this.write(
      db,
      [
        {
          sql: `UPDATE ${ref} SET ${sets.map(({ col }) => `${q(col.name)} = ?`).join(', ')} WHERE ${where}`,
          params: [...sets.map(({ value }) => bindable(value)), ...keyParams],
        },
      ],
      "Sorry, the row you're trying to update doesn't exist",
    );
    return { 'rows-updated': [outcome.changes] };
  }

  /**
   * Inserts the row and answers it as stored. MySQL has no RETURNING: the row is read back in the same transaction
   * by its key (the value given, or the generated one).
   */
  private async create(
    db: ActionDatabase,
    table: ActionTable,
    given: Array<{ col: TableColumn; value: unknown }>,
  ): Promise<Record<string, unknown>> {
    const engine = db.engine as Engine;
    const ref = tableRef(engine, table.schema, table.name);
    const q = (name: string) => quoteIdent(engine, name);
    const columns = given.map(({ col }) => q(col.name)).join(', ');
    const params = given.map(({ value }) => bindable(value));
    if (engine !== 'mysql') {
      const sql = given.length
        ? `INSERT INTO ${ref} (${columns}) VALUES (${given.map(() => '?').join(', ')}) RETURNING *`
        : `INSERT INTO ${ref} DEFAULT VALUES RETURNING *`;
      const [outcome] = await this.write(db, [{ sql, params }]);
      return outcome.rows[0] ?? {};
    }
    const insert: WriteStatement = { sql: `INSERT INTO ${ref} (${columns}) VALUES (${given.map(() => '?').join(', ')})`, params };
    const pks = table.columns.filter((c) => c.pk);
    if (pks.length === 0) {
      await this.write(db, [insert]);
      return {};
    }
    const keyOf = (col: TableColumn) => given.find((g) => g.col.name === col.name)?.value;
    const keyMatch = pks.map((c) => `${q(c.name)} = ${pks.length === 1 ? 'COALESCE(?, LAST_INSERT_ID())' : '?'}`).join(' AND ');
    const read: WriteStatement = {
      sql: `SELECT * FROM ${ref} WHERE ${keyMatch}`,
      params: pks.map((c) => bindable(keyOf(c))),
    };
    const [, outcome] = await this.write(db, [insert, read]);
    return outcome.rows[0] ?? {};
  }

  /** The primary key columns with their values; 400 when one is missing. */
  primaryKey(table: ActionTable, values: Record<string, unknown>): Array<{ col: TableColumn; value: unknown }> {
    const pks = table.columns.filter((c) => c.pk);
    if (pks.length === 0) throw new MessageError('Implicit actions need a table with a primary key.');
    return pks.map((col) => {
      const value = values[slugify(col.name)];
      if (value === undefined || value === null)
        throw new MessageError(`Missing primary key parameter: ${JSON.stringify(slugify(col.name))}`);
      return { col, value: this.coerce(col, value) };
    });
  }

  /** Form values arrive as text: a numeric column gets a number. */
  private coerce(col: TableColumn, v: unknown): unknown {
    if (typeof v === 'string' && NUMERIC.has(col.base_type) && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
    return v;
  }

  /** 400 for values that name no parameter of the action (Metabase's message and its printing of the sets). */
  assertKnown(values: Record<string, unknown>, params: ActionParameter[]): void {
    const known = new Set(params.map((p) => p.id));
    const extra = Object.keys(values).filter((k) => !known.has(k));
    if (extra.length) throw new MessageError(`No destination parameter found for ${setOf(extra)}. Found: ${setOf([...known])}`);
  }

  /**
   * The values an execution runs with: 400 for a value of a parameter the action does not declare or whose form
   * field is hidden (a viewer may not set it); a parameter left out gets its form field's default.
   */
  private accepted(action: ActionRow, values: Record<string, unknown>, declared: ActionParameter[]): Record<string, unknown> {
    const { hidden, defaults } = formSettings(action.visualization_settings);
    this.assertKnown(
      values,
      declared.filter((p) => !hidden.has(p.id)),
    );
    const out = { ...values };
    for (const p of declared) if (out[p.id] === undefined && defaults.has(p.id)) out[p.id] = defaults.get(p.id);
    return out;
  }

  /**
   * One transaction; the database's refusal is a 400 with its message (WriteFailedError); `missing`: 404 when a
   * statement changed no row.
   */
  private async write(db: ActionDatabase, statements: WriteStatement[], missing?: string) {
    const details = this.connections.validate(db.engine as Engine, openDetails(db.details, this.secrets));
    const outcomes = await runWrite(db.engine as Engine, details, statements);
    if (missing && outcomes.some((o) => o.changes === 0)) throw new MessageError(missing, 404);
    return outcomes;
  }
}

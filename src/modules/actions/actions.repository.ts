import { typedRow, typedRows, type RowShape } from '../../common/database/row-values';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { inList, raw, sql, type Sql } from '../../common/database/sql';
import { ID_SHAPE } from '../../schema/row-shape';
import { Action, ImplicitAction, QueryAction, type ActionType, type ImplicitKind } from '../../schema/action.entity';

/** An action row with its kind's row and the model it belongs to (its collection decides access). */
export interface ActionRow {
  id: number;
  model_id: number;
  type: ActionType;
  name: string;
  description: string | null;
  parameters: string | null;
  parameter_mappings: string | null;
  visualization_settings: string | null;
  public_uuid: string | null;
  made_public_by_id: number | null;
  creator_id: number;
  archived: boolean;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  database_id: number | null;
  dataset_query: string | null;
  kind: ImplicitKind | null;
  model_database_id: number | null;
  model_archived: boolean;
}

export const ACTION_ROW_SHAPE: RowShape = {
  numbers: ['id', 'model_id', 'made_public_by_id', 'creator_id', 'database_id', 'model_database_id'],
  booleans: ['archived', 'model_archived'],
};

/** A warehouse field row as the action's table reads it. */
interface FieldRow {
  id: number;
  name: string;
  base_type: string;
  database_type: string;
  semantic_type: string | null;
  database_is_pk: boolean;
  database_required: boolean;
  database_position: number;
  visibility_type: string;
}

const FIELD_ROW_SHAPE: RowShape = { numbers: ['id', 'database_position'], booleans: ['database_is_pk', 'database_required'] };

/** A warehouse table's column, as synced. */
export interface TableColumn {
  id: number;
  name: string;
  base_type: string;
  database_type: string;
  pk: boolean;
  required: boolean;
  position: number;
  /** `normal`, `details-only`, `hidden`, `sensitive` or `retired`. */
  visibility: string;
}

/** The model an implicit action belongs to: the table its query starts from, its query and its result columns. */
export interface ActionModel {
  id: number;
  /** Null for a native model (no implicit actions). */
  table_id: number | null;
  dataset_query: string | null;
  result_metadata: string | null;
}

/** The table an implicit action writes to. */
export interface ActionTable {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
  columns: TableColumn[];
}

/** A warehouse database as an action needs it: where to connect, and whether actions are on. */
export interface ActionDatabase {
  id: number;
  name: string;
  engine: string;
  details: Record<string, unknown>;
  settings: Record<string, unknown>;
}

const SELECT = `SELECT a.*, q.database_id, q.dataset_query, i.kind, c.database_id AS model_database_id, c.archived AS model_archived
  FROM action a
  JOIN report_card c ON c.id = a.model_id
  LEFT JOIN query_action q ON q.action_id = a.id
  LEFT JOIN implicit_action i ON i.action_id = a.id`;

const parseJson = (s: unknown): Record<string, unknown> => {
  if (s && typeof s === 'object') return s as Record<string, unknown>;
  if (typeof s !== 'string' || s === '') return {};
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** Actions in the app database (`action`, `query_action`, `implicit_action`), and the table and database facts they need. */
@Injectable()
export class ActionsRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** Every action read goes through here, so its rows are typed once. */
  private async actions(where: Sql): Promise<ActionRow[]> {
    return typedRows<ActionRow>(await this.sql.query(sql`${raw(SELECT)} ${where}`), ACTION_ROW_SHAPE);
  }

  async row(id: number): Promise<ActionRow | null> {
    const rows = await this.actions(sql`WHERE a.id = ${id}`);
    return rows[0] ?? null;
  }

  async rows(ids: number[]): Promise<ActionRow[]> {
    if (ids.length === 0) return [];
    return this.actions(sql`WHERE ${inList(raw('a.id'), ids)} ORDER BY a.id`);
  }

  /** Unarchived actions, of one model or of all, by id. */
  async list(modelId: number | null): Promise<ActionRow[]> {
    if (modelId !== null) return this.actions(sql`WHERE a.archived = ${false} AND a.model_id = ${modelId} ORDER BY a.id`);
    return this.actions(sql`WHERE a.archived = ${false} AND c.archived = ${false} ORDER BY a.id`);
  }

  /** The id of the unarchived action whose public link is `uuid`. */
  async idByPublicUuid(uuid: string): Promise<number | null> {
    const rows = await this.sql.query<Record<string, unknown>>('SELECT id FROM action WHERE public_uuid = $1 AND archived = $2', [
      uuid,
      false,
    ]);
    return rows.length ? typedRow<{ id: number }>(rows[0], ID_SHAPE).id : null;
  }

  /** The id of the unarchived dashboard whose public link is `uuid`. */
  async dashboardIdByPublicUuid(uuid: string): Promise<number | null> {
    const rows = await this.sql.query<Record<string, unknown>>('SELECT id FROM report_dashboard WHERE public_uuid = $1 AND archived = $2', [
      uuid,
      false,
    ]);
    return rows.length ? typedRow<{ id: number }>(rows[0], ID_SHAPE).id : null;
  }

  async create(action: Partial<Action>, query: Omit<QueryAction, 'action_id'> | null, kind: ImplicitKind | null): Promise<number> {
    return this.db.transaction(async (tx) => {
      const saved = await tx.save(tx.create(Action, action));
      if (query) await tx.insert(QueryAction, { action_id: saved.id, ...query });
      if (kind) await tx.insert(ImplicitAction, { action_id: saved.id, kind });
      return saved.id;
    });
  }

  /** Changes an action; a new type replaces its kind's row. */
  async update(
    id: number,
    changes: Partial<Action>,
    query: Omit<QueryAction, 'action_id'> | null,
    kind: ImplicitKind | null,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (Object.keys(changes).length) await tx.update(Action, { id }, changes);
      if (query) {
        await tx.delete(ImplicitAction, { action_id: id });
        await tx.save(tx.create(QueryAction, { action_id: id, ...query }));
      }
      if (kind) {
        await tx.delete(QueryAction, { action_id: id });
        await tx.save(tx.create(ImplicitAction, { action_id: id, kind }));
      }
    });
  }

  /** Deletes an action with its kind's row and the dashcards that show it. */
  async delete(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.createQueryBuilder().delete().from('report_dashboardcard').where('action_id = :id', { id }).execute();
      await tx.delete(QueryAction, { action_id: id });
      await tx.delete(ImplicitAction, { action_id: id });
      await tx.delete(Action, { id });
    });
  }

  /** Sets the public link unless one exists; the link the action then has. */
  async share(id: number, uuid: string, userId: number): Promise<string | null> {
    await this.sql.execute('UPDATE action SET public_uuid = $1, made_public_by_id = $2 WHERE id = $3 AND public_uuid IS NULL', [
      uuid,
      userId,
      id,
    ]);
    const rows = await this.sql.query<{ public_uuid: string | null }>('SELECT public_uuid FROM action WHERE id = $1', [id]);
    return rows[0]?.public_uuid ?? null;
  }

  async unshare(id: number): Promise<void> {
    await this.sql.execute('UPDATE action SET public_uuid = NULL, made_public_by_id = NULL WHERE id = $1', [id]);
  }

  /** The model (a card) an action belongs to; `table_id` null for a native one. */
  async model(modelId: number): Promise<ActionModel | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, table_id, query_type, dataset_query, result_metadata FROM report_card WHERE id = $1',
      [modelId],
    );
    if (!rows[0]) return null;
    const r = typedRow<ActionModel & { query_type: string | null }>(rows[0], { numbers: ['id', 'table_id'] });
    const table_id = r.query_type !== 'native' ? r.table_id : null;
    return { id: r.id, table_id, dataset_query: r.dataset_query, result_metadata: r.result_metadata };
  }

  /** A dashcard of a dashboard, with the action it shows. */
  async dashcard(
    dashboardId: number,
    dashcardId: number,
  ): Promise<{ id: number; action_id: number | null; parameter_mappings: string | null } | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, action_id, parameter_mappings FROM report_dashboardcard WHERE id = $1 AND dashboard_id = $2',
      [dashcardId, dashboardId],
    );
    return rows[0] ? typedRow(rows[0], { numbers: ['id', 'action_id'] }) : null;
  }

  async database(id: number): Promise<ActionDatabase | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, name, engine, details, settings FROM metabase_database WHERE id = $1',
      [id],
    );
    if (!rows[0]) return null;
    const r = typedRow<{ id: number; name: string; engine: string; details: string; settings: string | null }>(rows[0], ID_SHAPE);
    return { id: r.id, name: r.name, engine: r.engine, details: parseJson(r.details), settings: parseJson(r.settings) };
  }

  /** A synced table with its active columns, in their order. */
  async table(id: number): Promise<ActionTable | null> {
    const rows = await this.sql.query<Record<string, unknown>>('SELECT id, db_id, schema, name FROM metabase_table WHERE id = $1', [id]);
    if (!rows[0]) return null;
    const t = typedRow<{ id: number; db_id: number; schema: string | null; name: string }>(rows[0], { numbers: ['id', 'db_id'] });
    const fields = await this.sql.query<Record<string, unknown>>(
      'SELECT id, name, base_type, database_type, semantic_type, database_is_pk, database_required, database_position, visibility_type' +
        ' FROM metabase_field WHERE table_id = $1 AND active = $2 AND nfc_path IS NULL ORDER BY database_position, id',
      [id, true],
    );
    return {
      id: t.id,
      db_id: t.db_id,
      schema: t.schema,
      name: t.name,
      columns: typedRows<FieldRow>(fields, FIELD_ROW_SHAPE).map((c) => ({
        id: c.id,
        name: c.name,
        base_type: c.base_type,
        database_type: c.database_type,
        pk: c.database_is_pk || c.semantic_type === 'type/PK',
        required: c.database_required,
        position: c.database_position,
        visibility: c.visibility_type,
      })),
    };
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import { uniqueOr } from '../../common/database/unique-violation';
import { DatabasePermissionsRepository } from '../warehouse';
import { fieldOf, templateTagOf } from './restrictions';
import { CreateRowPolicyDto, mapRowPolicy, RowPolicyView, UpdateRowPolicyDto } from './row-policies.dto';
import { RowPoliciesRepository } from './row-policies.repository';

export const TYPE_MISMATCH = "Sandbox Questions can't return columns that have different types than the Table they are sandboxing.";

/** `/api/mt/gtap`: the policies themselves (admins only, checked by the route). */
@Injectable()
export class RowPoliciesService {
  constructor(
    private readonly repo: RowPoliciesRepository,
    private readonly perms: DatabasePermissionsRepository,
  ) {}

  async list(groupId?: number, tableId?: number): Promise<RowPolicyView[] | RowPolicyView | null> {
    if (groupId !== undefined && tableId !== undefined) {
      const one = await this.repo.byGroupAndTable(groupId, tableId);
      return one ? mapRowPolicy(one) : null;
    }
    return (await this.repo.all()).map(mapRowPolicy);
  }

  async get(id: number): Promise<RowPolicyView> {
    const p = await this.repo.byId(id);
    if (!p) throw new NotFoundError();
    return mapRowPolicy(p);
  }

  /**
   * Stores a policy and takes native SQL on the table's database away from the group (Metabase turns
   * `query-builder-and-native` into `query-builder`): SQL could read any row.
   */
  async create(dto: CreateRowPolicyDto): Promise<RowPolicyView> {
    const dbId = await this.validate(dto);
    const exists = () => new MessageError('This group already has a policy on this table.');
    if (await this.repo.byGroupAndTable(dto.group_id, dto.table_id)) throw exists();
    const row = await uniqueOr(
      () =>
        this.repo.transaction(async (tx) => {
          const saved = await this.repo.insert(
            {
              group_id: dto.group_id,
              table_id: dto.table_id,
              card_id: dto.card_id ?? null,
              attribute_remappings: dto.attribute_remappings ?? {},
            },
            tx,
          );
          await this.withoutNative(dto.group_id, dbId, tx);
          return saved;
        }),
      exists,
    );
    return mapRowPolicy(row);
  }

  /**
   * The policies of a permissions graph PUT (`sandboxes`), stored in its transaction: each checked first as a POST
   * is (`validate`, before the transaction, answers its `db_id`), then replacing the group's policy on the table, if any; and the
   * policies of tables moved off `sandboxed` removed.
   */
  async applyInGraph(
    store: Array<{
      group_id: number;
      table_id: number;
      db_id: number;
      card_id: number | null;
      attribute_remappings: Record<string, unknown>;
    }>,
    remove: Array<{ group_id: number; table_id: number }>,
    tx: EntityManager,
  ): Promise<void> {
    for (const p of remove) await this.repo.removeFor(p.group_id, p.table_id, tx);
    for (const p of store) {
      const current = await this.repo.byGroupAndTable(p.group_id, p.table_id, tx);
      const row = { card_id: p.card_id, attribute_remappings: p.attribute_remappings };
      if (current) await this.repo.update(current.id, row, tx);
      else await this.repo.insert({ group_id: p.group_id, table_id: p.table_id, ...row }, tx);
      await this.withoutNative(p.group_id, p.db_id, tx);
    }
  }

  /**
   * Takes native SQL on the database away from a group with a policy (SQL could read any row). Both forms of the
   * grant: `native` (the earlier graph's) and `create_queries` (Metabase's, which wins when set).
   */
  private async withoutNative(groupId: number, dbId: number, tx: EntityManager): Promise<void> {
    const grant = await this.perms.grant(groupId, dbId, tx);
    if (grant && (grant.native === 'write' || grant.create_queries === 'query-builder-and-native')) {
      const createQueries = grant.create_queries === 'query-builder-and-native' ? 'query-builder' : grant.create_queries;
      await this.perms.set(groupId, dbId, { ...grant, native: 'none', create_queries: createQueries }, tx);
    }
  }

  async update(id: number, dto: UpdateRowPolicyDto): Promise<RowPolicyView> {
    const p = await this.repo.byId(id);
    if (!p) throw new NotFoundError();
    if ((dto.table_id !== undefined && dto.table_id !== null && dto.table_id !== p.table_id) || (dto.group_id ?? p.group_id) !== p.group_id)
      throw new MessageError("A policy's group and table cannot be changed: delete it and create another.");
    const changes: { card_id?: number | null; attribute_remappings?: Record<string, unknown> } = {};
    if (dto.card_id !== undefined) changes.card_id = dto.card_id;
    if (dto.attribute_remappings !== undefined) changes.attribute_remappings = dto.attribute_remappings ?? {};
    const next = { ...p, ...changes };
    await this.validate(next);
    if (Object.keys(changes).length) await this.repo.update(id, changes);
    return mapRowPolicy(next);
  }

  async remove(id: number): Promise<void> {
    if (!(await this.repo.byId(id))) throw new NotFoundError();
    await this.repo.remove(id);
  }

  /**
   * What POST /validate checks, and create/update before they store: the group, table and card exist, the card reads
   * the table's database and returns no column typed unlike the table's, and a filter policy's attributes name
   * columns of the table (a question's too: they filter its source). Answers the table's database.
   */
  async validate(p: {
    group_id: number;
    table_id: number;
    card_id?: number | null;
    attribute_remappings?: Record<string, unknown> | null;
  }) {
    if (!(await this.repo.groupExists(p.group_id))) throw new MessageError(`Group ${p.group_id} does not exist.`, 404);
    const dbId = await this.repo.tableDb(p.table_id);
    if (dbId === null) throw new MessageError(`Table ${p.table_id} does not exist.`, 404);
    const fields = await this.repo.fields([p.table_id]);
    const remappings = p.attribute_remappings ?? {};
    if (p.card_id !== undefined && p.card_id !== null) {
      const card = await this.repo.card(p.card_id);
      if (!card) throw new MessageError(`Card ${p.card_id} does not exist.`, 404);
      if (card.database_id !== dbId) throw new MessageError("A policy's question must query the table's database.");
      const columns = Array.isArray(card.result_metadata) ? (card.result_metadata as Array<{ name?: unknown; base_type?: unknown }>) : [];
      for (const c of columns) {
        const f = fields.find((x) => x.name === c.name);
        if (f && typeof c.base_type === 'string' && c.base_type !== f.base_type) throw new MessageError(TYPE_MISMATCH);
      }
      const type = (card.query as { type?: unknown } | null)?.type;
      if (type === 'native') return this.validateSqlQuestion(card, remappings, dbId);
      if (type !== 'query') throw new MessageError(`Card ${p.card_id} has no query.`);
    }
    // A query builder question's attributes filter its source, the table: they too name its columns.
    for (const [attribute, target] of Object.entries(remappings)) {
      if (!fieldOf(target, fields))
        throw new MessageError(`Attribute \`${attribute}\` is mapped to ${JSON.stringify(target)}, not a column of table ${p.table_id}.`);
    }
    return dbId;
  }

  /**
   * A SQL question stands in for the table with its template tags filled in from attributes: each attribute names a
   * variable or field filter of the question, and its columns must be known (they are what the group sees).
   */
  private validateSqlQuestion(
    card: { id: number; query: unknown; result_metadata: unknown },
    remappings: Record<string, unknown>,
    dbId: number,
  ): number {
    const tags = (card.query as { native?: { 'template-tags'?: Record<string, unknown> } }).native?.['template-tags'] ?? {};
    for (const [attribute, target] of Object.entries(remappings)) {
      const tag = templateTagOf(target);
      if (!tag || !tags[tag.name])
        throw new MessageError(`Attribute \`${attribute}\` is mapped to ${JSON.stringify(target)}, not a variable of question ${card.id}.`);
    }
    if (!Array.isArray(card.result_metadata) || !card.result_metadata.length)
      throw new MessageError(
        `Question ${card.id} has no known columns (it could not run without values): give its variables default values and save it again.`,
      );
    return dbId;
  }
}

import { Injectable, Optional } from '@nestjs/common';
import { userOf, type Reader } from '../../common/auth/shared-grant';
import { PreprocessError } from '../../query-engine/preprocess/context';
import { attributeValues, type RowPolicies, type TableRestriction } from '../../query-engine/preprocess/row-policies';
import { applyingPolicies } from './impersonation-rules';
import { ImpersonationRepository } from './impersonation.repository';
import { questionFieldIds, restrictionsKey, restrictionsOf } from './restrictions';
import { RowPoliciesRepository } from './row-policies.repository';
import { UserAttributes } from './user-attributes';

const NONE: ReadonlyMap<number, TableRestriction> = new Map();

/** The rows of one table an action may write for a caller (RowSecurityService.writeScope). */
export type WriteScope =
  | { kind: 'open' }
  | { kind: 'refused'; message: string }
  | { kind: 'filtered'; filters: Array<Array<{ column: string; values: Array<string | number | boolean> }>> };

/** A caller's row security, as the query engine and the result cache see it. */
export interface CallerPolicies extends RowPolicies {
  /** Canonical text of the caller's restrictions on a database ('' for none): part of result-cache and shared-run keys. */
  key(dbId: number): Promise<string>;
}

/** Resolves which tables are restricted for a caller, and how, once per database and run. */
@Injectable()
export class RowSecurityService {
  constructor(
    private readonly repo: RowPoliciesRepository,
    private readonly attributes: UserAttributes,
    @Optional() private readonly impersonations?: ImpersonationRepository,
  ) {}

  /** Which group has a policy on which table: the permissions graph shows those tables as `sandboxed`. */
  async policyTables(): Promise<Array<{ group_id: number; table_id: number }>> {
    return (await this.repo.all()).map((p) => ({ group_id: p.group_id, table_id: p.table_id }));
  }

  /** The policies of one caller. Admins and shared objects (public links, embeds) have none. */
  policiesFor(caller: Reader): CallerPolicies {
    const user = userOf(caller);
    const byDb = new Map<number, Promise<ReadonlyMap<number, TableRestriction>>>();
    let attributes: Promise<Record<string, unknown>> | undefined;
    const restrictions = (dbId: number): Promise<ReadonlyMap<number, TableRestriction>> => {
      if (!user || user.isSuperuser) return Promise.resolve(NONE);
      let found = byDb.get(dbId);
      if (!found) {
        found = this.resolve(user.groupIds, dbId, () => (attributes ??= this.attributes.attributesOf(user.id)));
        byDb.set(dbId, found);
      }
      return found;
    };
    return { restrictions, key: async (dbId) => restrictionsKey(await restrictions(dbId)) };
  }

  /**
   * Whether a policy restricts the table for the caller: its raw values (field values, search, remapping, summary)
   * are then not read straight from the warehouse, which would show every row's.
   */
  async restricts(caller: Reader, dbId: number, tableId: number): Promise<boolean> {
    return this.restrictor(caller)(dbId, tableId);
  }

  /** restricts() for several tables of one caller (one request): each database's policies are looked up once. */
  restrictor(caller: Reader): (dbId: number, tableId: number) => Promise<boolean> {
    const policies = this.policiesFor(caller);
    const impersonated = new Map<number, Promise<boolean>>();
    return async (dbId, tableId) => {
      if ((await policies.restrictions(dbId)).has(tableId)) return true;
      let found = impersonated.get(dbId);
      if (!found) impersonated.set(dbId, (found = this.impersonated(caller, dbId)));
      return found;
    };
  }

  /**
   * Which rows of a table the caller may write through an action: all, the rows their filter policies let through
   * (any one filter, every condition of it: `column IN values`), or none, with why. A question policy's rows or an
   * impersonated connection's cannot be told apart by a write.
   */
  async writeScope(caller: Reader, dbId: number, tableId: number): Promise<WriteScope> {
    if (await this.impersonated(caller, dbId))
      return { kind: 'refused', message: 'Actions cannot write to a database your queries reach through an impersonated role.' };
    const r = (await this.policiesFor(caller).restrictions(dbId)).get(tableId);
    if (!r) return { kind: 'open' };
    if (r.refusal) return { kind: 'refused', message: r.refusal };
    if (r.question || r.nativeQuestion)
      return { kind: 'refused', message: 'Actions cannot write to a table your row security policy replaces by a question.' };
    try {
      const filters = r.filters.map((f) => f.conditions.map((c) => ({ column: c.column, values: attributeValues(c) })));
      // A policy without conditions lets every row through: so does their OR.
      return filters.some((f) => f.length === 0) ? { kind: 'open' } : { kind: 'filtered', filters };
    } catch (e) {
      if (e instanceof PreprocessError) return { kind: 'refused', message: e.message };
      throw e;
    }
  }

  /** Whether any policy restricts a table of the database for the caller (SQL written by someone is then refused). */
  async restrictsAny(caller: Reader, dbId: number): Promise<boolean> {
    return (await this.policiesFor(caller).restrictions(dbId)).size > 0 || (await this.impersonated(caller, dbId));
  }

  /**
   * Whether an impersonation policy applies to the caller on the database: every table then counts as restricted,
   * since values read outside a query (field values, search, actions' writes) would go through the connection's own
   * role, not the caller's.
   */
  private async impersonated(caller: Reader, dbId: number): Promise<boolean> {
    const user = userOf(caller);
    if (!user || user.isSuperuser || !this.impersonations) return false;
    const policies = await this.impersonations.forGroups(user.groupIds, dbId);
    if (!policies.length) return false;
    return applyingPolicies(policies, await this.repo.unrestrictedGroups(user.groupIds, dbId)).length > 0;
  }

  /**
   * The fields of a table the caller may see in its metadata: those of a question policy's question (a SQL
   * question's by their names), or null (no narrowing) when no question policy applies.
   */
  async visibleFields(caller: Reader, dbId: number, tableId: number): Promise<Set<number> | null> {
    const r = (await this.policiesFor(caller).restrictions(dbId)).get(tableId);
    if (!r) return null;
    if (r.refusal) return new Set();
    if (r.nativeQuestion) {
      // A SQL question's columns are named, not numbered: the table's fields of those names.
      const names = new Set(r.nativeQuestion.columns.map((c) => c.name.toLowerCase()));
      return new Set((await this.repo.fields([tableId])).filter((f) => names.has(f.name.toLowerCase())).map((f) => f.id));
    }
    if (!r.question) return null;
    const ids = questionFieldIds(r.question.query);
    return ids ? new Set(ids) : null;
  }

  private async resolve(
    groupIds: number[],
    dbId: number,
    attributes: () => Promise<Record<string, unknown>>,
  ): Promise<ReadonlyMap<number, TableRestriction>> {
    const policies = await this.repo.forGroups(groupIds, dbId);
    if (!policies.length) return NONE;
    const [readers, fields, attrs] = await Promise.all([
      this.repo.unrestrictedGroups(groupIds, dbId),
      this.repo.fields([...new Set(policies.map((p) => p.table_id))]),
      attributes(),
    ]);
    return restrictionsOf({ policies, readers, fields, attributes: attrs });
  }
}

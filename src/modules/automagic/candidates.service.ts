import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { DatabaseAccessService } from '../warehouse';
import { AutomagicRepository } from './automagic.repository';
import { type XTableRow } from './xray.types';
import { rankTable } from './interestingness';
import { tableFields } from './xray-fields';

/**
 * GET /api/automagic-dashboards/database/:id/candidates: the database's schemas, each with its tables ordered by how
 * interesting their x-ray would be, and each table with its x-ray URL. Tables hidden from the data reference, or
 * blocked for the caller, are left out.
 */
@Injectable()
export class CandidatesService {
  constructor(
    private readonly repo: AutomagicRepository,
    private readonly access: DatabaseAccessService,
  ) {}

  async candidates(caller: AuthUser, dbId: number) {
    if (!(await this.repo.databaseExists(dbId))) throw new NotFoundError();
    await this.access.assertCanRead(caller, dbId);
    // Tables hidden from the data reference, and those the caller's view-data blocks, are no candidates.
    const tables = await this.access.viewableTables(
      caller,
      (await this.repo.databaseTables(dbId)).filter((t) => t.visibility_type === null),
    );
    const fields = await this.repo.fieldsOf(tables.map((t) => t.id));
    const linkedFrom = new Map<number, number>();
    const tableOfField = new Map(fields.map((f) => [f.id, f.table_id]));
    for (const f of fields) {
      const target = f.fk_target_field_id === null ? undefined : tableOfField.get(f.fk_target_field_id);
      if (target !== undefined && target !== f.table_id) linkedFrom.set(target, (linkedFrom.get(target) ?? 0) + 1);
    }
    const ranked = tables.map((t) => ({ t, ...rankTable(t, tableFields(t, fields), linkedFrom.get(t.id) ?? 0) }));
    const bySchema = new Map<string, typeof ranked>();
    for (const r of ranked) bySchema.set(r.t.schema ?? '', [...(bySchema.get(r.t.schema ?? '') ?? []), r]);
    const schemas = [...bySchema.entries()].map(([schema, list]) => {
      const sorted = [...list].sort((a, b) => b.score - a.score || a.t.display_name.localeCompare(b.t.display_name));
      return {
        schema: schema === '' ? null : schema,
        score: sorted[0]?.score ?? 0,
        tables: sorted.map((r) => candidateView(r.t, r.score, r.template)),
      };
    });
    return schemas.sort((a, b) => b.score - a.score).map((s, order) => ({ ...s, order }));
  }
}

function candidateView(t: XTableRow, score: number, template: string) {
  return {
    url: `/auto/dashboard/table/${t.id}`,
    title: t.display_name,
    description: `A look at ${t.display_name}`,
    score,
    rule: `table/${template}`,
    table: {
      id: t.id,
      db_id: t.db_id,
      schema: t.schema,
      name: t.name,
      display_name: t.display_name,
      description: t.description,
      entity_type: t.entity_type,
    },
  };
}

import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ApiError } from '../../common/errors/api-errors';
import { DatasetMetadataService } from '../dataset';
import { TableMetadataService } from '../tables';
import { CardAccessService } from './card-access.service';
import { deriveQuery } from './card-query';
import { parseJson } from '../../common/database/stored-json';

type Metadata = Awaited<ReturnType<DatasetMetadataService['queryMetadata']>>;

/** A 403 or 404 on a part of the answer leaves that part out; anything else is a real failure. */
async function unlessRefused<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError && [400, 403, 404].includes(e.status)) return null;
    throw e;
  }
}

/**
 * GET /api/card/:id/query_metadata (v0.52): what the embedding SDK and the query builder load to show the card:
 * the database, tables and fields of its query (as POST /api/dataset/query_metadata answers them), plus the virtual
 * tables (`card__<id>`) of the saved questions it is built on, and its own when it is a model or metric.
 */
@Injectable()
export class CardMetadataService {
  constructor(
    private readonly access: CardAccessService,
    private readonly datasetMetadata: DatasetMetadataService,
    private readonly tableMetadata: TableMetadataService,
  ) {}

  async queryMetadata(caller: AuthUser, id: number) {
    const { row } = await this.access.readable(caller, id);
    const sent = parseJson<unknown>(row.dataset_query, null);
    const base: Metadata = (await unlessRefused(() => this.datasetMetadata.queryMetadata(caller, sent))) ?? {
      databases: [],
      tables: [],
      fields: [],
    };
    const cardIds = new Set(
      deriveQuery(sent)
        .references.filter((r) => r.kind === 'card')
        .map((r) => r.ref_id),
    );
    if (row.type !== 'question') cardIds.add(row.id);
    const virtual = [];
    for (const cardId of cardIds) {
      const table = await unlessRefused(() => this.tableMetadata.cardQueryMetadata(caller, cardId));
      if (table) virtual.push(table);
    }
    return { ...base, tables: [...base.tables, ...virtual] } as { databases: unknown[]; tables: unknown[]; fields: unknown[] };
  }
}

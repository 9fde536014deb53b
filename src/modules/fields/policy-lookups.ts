import { Injectable } from '@nestjs/common';
import type { Reader } from '../../common/auth/shared-grant';
import { BusQuery, EventBus } from '../../common/events/event-bus';
import type { DatasetQuery, FieldRef, Filter } from '../../query-engine/mbql/types';

/**
 * Asks the module that runs queries (dataset) for the rows of an MBQL query run for a caller through the query engine,
 * with its permissions, row policies and role.
 */
export class LookupRowsQuery extends BusQuery<unknown[][]> {
  constructor(
    readonly caller: Reader,
    readonly query: DatasetQuery,
    readonly maxRows: number,
  ) {
    super();
  }
}

/**
 * The field look-ups (values, value search, remapping) of a caller a row policy or impersonation restricts. Read
 * straight from the warehouse they would show every row's values; as MBQL run by the query engine they go through
 * the caller's policies (Metabase's sandboxed FieldValues: the distinct values computed by a query with the sandbox
 * applied). The dataset module, which runs queries and imports this one, answers them on the bus.
 */
@Injectable()
export class PolicyLookups {
  constructor(private readonly bus: EventBus) {}

  async rows(caller: Reader, query: DatasetQuery, maxRows: number): Promise<unknown[][]> {
    const rows = await this.bus.askOne(new LookupRowsQuery(caller, query, maxRows));
    if (!rows) throw new Error('No query runner for restricted field look-ups (the dataset module was not loaded).');
    return rows;
  }
}

const ref = (id: number): FieldRef => ['field', id, null];

/** The field's distinct non-null values in its table, ascending, one over `max` so more can be told apart. */
export function distinctQuery(dbId: number, tableId: number, fieldId: number, max: number, contains?: string): DatasetQuery {
  const filters: unknown[] = [['not-null', ref(fieldId)]];
  if (contains !== undefined) filters.push(['contains', ['concat', ref(fieldId)], contains, { 'case-sensitive': false }]);
  return {
    database: dbId,
    type: 'query',
    query: {
      'source-table': tableId,
      breakout: [ref(fieldId)],
      filter: (filters.length === 1 ? filters[0] : ['and', ...filters]) as Filter,
      limit: max + 1,
    },
  };
}

/** Distinct (key, search) pairs of the table whose search value starts with `prefix`, any case, by search value then key. */
export function searchQuery(dbId: number, tableId: number, keyId: number, searchId: number, prefix: string, max: number): DatasetQuery {
  return {
    database: dbId,
    type: 'query',
    query: {
      'source-table': tableId,
      breakout: [ref(keyId), ref(searchId)],
      filter: ['starts-with', ['concat', ref(searchId)], prefix, { 'case-sensitive': false }] as unknown as Filter,
      'order-by': [
        ['asc', ref(searchId)],
        ['asc', ref(keyId)],
      ],
      limit: max,
    },
  };
}

/** The key and remapped value of a row whose key is `value`. */
export function remappingQuery(dbId: number, tableId: number, keyId: number, remappedId: number, value: string | number): DatasetQuery {
  return {
    database: dbId,
    type: 'query',
    query: { 'source-table': tableId, fields: [ref(keyId), ref(remappedId)], filter: ['=', ref(keyId), value] as Filter, limit: 1 },
  };
}

/** The table's row count and, when `distinct`, the field's count of distinct values (a field's summary). */
export function summaryQuery(dbId: number, tableId: number, fieldId: number, distinct: boolean): DatasetQuery {
  return {
    database: dbId,
    type: 'query',
    query: {
      'source-table': tableId,
      aggregation: distinct ? [['count'], ['distinct', ref(fieldId)]] : [['count']],
    } as DatasetQuery['query'],
  };
}

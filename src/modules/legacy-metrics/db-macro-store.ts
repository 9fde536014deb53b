import { Injectable } from '@nestjs/common';
import type { MacroKind, MacroStore, TableMacro } from '../content/macro-store';
import { LegacyMetricsRepository } from './legacy-metrics.repository';
import { MacroHydrator } from './macro-hydrator';

/** MACRO_STORE: the segments or metrics of many tables in one query, hydrated together (a few more, whatever their number). */
@Injectable()
export class DbMacroStore implements MacroStore {
  constructor(
    private readonly repo: LegacyMetricsRepository,
    private readonly hydrator: MacroHydrator,
  ) {}

  async onTables(kind: MacroKind, tableIds: number[]): Promise<Map<number, TableMacro[]>> {
    const views = await this.hydrator.views(kind, await this.repo.activeOnTables(kind, tableIds));
    const byTable = new Map<number, TableMacro[]>();
    for (const v of views) {
      const list = byTable.get(v.table_id) ?? [];
      list.push(v);
      byTable.set(v.table_id, list);
    }
    return byTable;
  }
}

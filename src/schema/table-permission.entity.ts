import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { CreateQueriesAccess, DownloadAccess, ViewDataAccess } from './database-permission.entity';

/**
 * One group's access to one table, for the kinds that group has per table on the table's database. A null column
 * means that kind is set database-wide (database_permission); inside a per-table kind, a table without a value has
 * the least access (`blocked`, `no`, `none`), which is also what tables synced after the edit get.
 */
@Entity('table_permission')
@Unique(['group_id', 'table_id'])
export class TablePermission {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  group_id: number;

  @Column({ type: 'integer' })
  db_id: number;

  @Column({ type: 'integer' })
  table_id: number;

  @Column({ type: 'varchar', length: 32, nullable: true })
  view_data: ViewDataAccess | null;

  /** `query-builder` or `no`: native SQL is only ever database-wide. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  create_queries: Exclude<CreateQueriesAccess, 'query-builder-and-native'> | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  download: DownloadAccess | null;
}

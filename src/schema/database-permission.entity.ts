import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type DataAccess = 'unrestricted' | 'no';
export type NativeAccess = 'write' | 'none';
/** Downloads of query results: up to 1,048,575 rows (`full`), 10,000 (`limited`), or none at all. */
export type DownloadAccess = 'full' | 'limited' | 'none';
export type UploadAccess = 'yes' | 'no';
/** Metabase's `view-data` at one level (database or table); `sandboxed` tables are stored as unrestricted. */
export type ViewDataAccess = 'unrestricted' | 'blocked';
/** Metabase's `create-queries`: native SQL too, the query builder only, or nothing new (saved questions only). */
export type CreateQueriesAccess = 'query-builder-and-native' | 'query-builder' | 'no';

/** What one group may query (and download) in one database. No row means no access; admins always have full access. */
@Entity('database_permission')
@Unique(['group_id', 'db_id'])
export class DatabasePermission {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  group_id: number;

  @Column({ type: 'integer' })
  db_id: number;

  @Column({ type: 'varchar', length: 16 })
  data: DataAccess;

  @Column({ type: 'varchar', length: 16 })
  native: NativeAccess;

  /** The column's default in the app DB is `full`; not declared here, where TypeORM would reload it after each upsert. */
  @Column({ type: 'varchar', length: 16 })
  download: DownloadAccess;

  /**
   * CSV uploads into this database (`yes`/`no`); counts only with data access. Admins always may. Never part of an
   * insert, so a new grant gets the app DB's default `no`; changed only through the graph.
   */
  @Column({ type: 'varchar', length: 16, insert: false })
  upload: UploadAccess;

  /**
   * Database-wide `create-queries` when it says more than `data`/`native` do (`no` with data access: saved questions
   * only). Null: `native` decides (`write` is query-builder-and-native, `none` query-builder), as before it existed.
   */
  @Column({ type: 'varchar', length: 32, nullable: true })
  create_queries: CreateQueriesAccess | null;
}

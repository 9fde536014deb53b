import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type DataAccess = 'unrestricted' | 'no';
export type NativeAccess = 'write' | 'none';
/** Downloads of query results: up to 1,048,575 rows (`full`), 10,000 (`limited`), or none at all. */
export type DownloadAccess = 'full' | 'limited' | 'none';

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
}

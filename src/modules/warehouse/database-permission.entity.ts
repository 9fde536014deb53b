import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type DataAccess = 'unrestricted' | 'no';
export type NativeAccess = 'write' | 'none';

/** What one group may query in one database. No row means no access; admins always have full access. */
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
}

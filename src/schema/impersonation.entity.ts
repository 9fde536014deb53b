import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A connection impersonation policy (Metabase's ConnectionImpersonation): the group's queries on the database run
 * under the warehouse role named by the user's attribute `attribute`, so the warehouse's own row security applies.
 */
@Entity('impersonation')
export class Impersonation {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  group_id: number;

  @Column({ type: 'integer' })
  db_id: number;

  @Column({ type: 'text' })
  attribute: string;
}

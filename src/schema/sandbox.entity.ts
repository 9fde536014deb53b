import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A row/column security policy (Metabase's sandbox, once "GTAP"): the group's view of the table is filtered by user
 * attributes (card_id null) or replaced by a saved question (card_id set). `attribute_remappings` maps an attribute
 * name to a column name, a field id or a parameter target.
 */
@Entity('sandbox')
export class Sandbox {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  group_id: number;

  @Column({ type: 'integer' })
  table_id: number;

  @Column({ type: 'integer', nullable: true })
  card_id: number | null;

  @Column({ type: 'simple-json', nullable: true })
  attribute_remappings: Record<string, unknown> | null;
}

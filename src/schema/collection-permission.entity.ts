import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type CollectionPerm = 'read' | 'write';

/** One group's grant on one collection; `collection_id` null is the Root collection of `namespace`. */
@Entity('collection_permission')
export class CollectionPermission {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  group_id: number;

  @Column({ type: 'integer', nullable: true })
  collection_id: number | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  namespace: string | null;

  @Column({ type: 'varchar', length: 8 })
  perm: CollectionPerm;
}

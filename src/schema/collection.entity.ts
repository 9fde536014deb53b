import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A folder of content. `location` holds the ancestors' ids (`/1/2/`; `/` at the top of the tree). */
@Entity('collection')
export class Collection {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 1024, default: '/' })
  location: string;

  @Column({ type: 'integer', nullable: true })
  personal_owner_id: number | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  namespace: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  authority_level: string | null;

  @Column({ type: 'varchar', length: 510, nullable: true })
  slug: string | null;

  @Column({ type: 'varchar', length: 21, nullable: true })
  entity_id: string | null;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'boolean', default: false })
  archived_directly: boolean;

  @CreateDateColumn()
  created_at: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An organisation whose users sign in through SSO and are kept apart from the instance's own people. */
@Entity('tenant')
export class Tenant {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255, unique: true })
  name: string;

  /** What the identity provider's tenant claim names; never changes once made. */
  @Column({ type: 'varchar', length: 255, unique: true })
  slug: string;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'simple-json', nullable: true })
  attributes: Record<string, unknown> | null;

  @Column({ type: 'integer', nullable: true })
  tenant_collection_id: number | null;

  /** The group of the tenant's users, through which their collection is granted. */
  @Column({ type: 'integer', nullable: true })
  group_id: number | null;

  @CreateDateColumn()
  created_at: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** `personal` users log in; an `api-key` user is the identity an API key acts as. */
export type UserType = 'personal' | 'api-key';

@Entity('core_user')
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  /** Stored lower-cased: emails are unique regardless of case. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  first_name: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  last_name: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true, select: false })
  password_hash: string | null;

  @Column({ type: 'boolean', default: false })
  is_superuser: boolean;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'boolean', default: true })
  is_qbnewb: boolean;

  @Column({ type: 'varchar', length: 5, nullable: true })
  locale: string | null;

  @Column({ type: 'simple-json', nullable: true })
  login_attributes: Record<string, unknown> | null;

  /** The identity provider's claims at the last SSO sign-in; `login_attributes` override them. */
  @Column({ type: 'simple-json', nullable: true })
  jwt_attributes: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  sso_source: string | null;

  @Column({ type: 'varchar', length: 16, default: 'personal' })
  type: UserType;

  /** The tenant of an external user; null for the instance's own people. */
  @Column({ type: 'integer', nullable: true })
  tenant_id: number | null;

  @CreateDateColumn()
  date_joined: Date;

  @Column({ type: Date, nullable: true })
  last_login: Date | null;

  @UpdateDateColumn()
  updated_at: Date;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The built-in groups' ids, as the foundation migration creates them: 1 All Users, 2 Administrators. */
export const ALL_USERS_GROUP_ID = 1;
export const ADMIN_GROUP_ID = 2;

/** The built-in groups (All tenant users exists once tenants were turned on); the rest are admins' own. */
export type MagicGroupType = 'all-internal-users' | 'admin' | 'all-external-users';

@Entity('permissions_group')
export class PermissionsGroup {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255, unique: true })
  name: string;

  @Column({ type: 'varchar', length: 32, nullable: true, unique: true })
  magic_group_type: MagicGroupType | null;
}

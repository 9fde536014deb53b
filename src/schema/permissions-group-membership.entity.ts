import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

@Entity('permissions_group_membership')
@Unique(['user_id', 'group_id'])
export class PermissionsGroupMembership {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  user_id: number;

  @Column({ type: 'integer' })
  group_id: number;

  @Column({ type: 'boolean', default: false })
  is_group_manager: boolean;
}

import { applyDecorators } from '@nestjs/common';
import { Bool, Id, MaxLen, NonBlankString, Nullable } from '../../common/validation/validators';
import { commonName } from '../../common/views/wire-values';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { GroupRow, MemberRow } from './permissions.repository';

/** One decorator, so the non-blank check runs (and reports) first. */
const GroupName = () => applyDecorators(NonBlankString(), MaxLen(255));

export class GroupDto {
  @GroupName()
  name: string;
}

export class AddMembershipDto {
  @Id()
  group_id: number;

  @Id()
  user_id: number;

  @Nullable()
  @Bool()
  is_group_manager?: boolean | null;
}

export type GroupView = GroupRow;

export interface MemberView {
  user_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  common_name: string;
  membership_id: number;
  group_id: number;
  is_group_manager: boolean;
  is_superuser: boolean;
}

export interface MembershipView {
  membership_id: number;
  group_id: number;
  user_id: number;
  is_group_manager: boolean;
}

export const toMemberView = (m: MemberRow): MemberView => ({ ...m, common_name: commonName(m) });

export const toMembershipView = (m: PermissionsGroupMembership): MembershipView => ({
  membership_id: m.id,
  group_id: m.group_id,
  user_id: m.user_id,
  is_group_manager: m.is_group_manager,
});

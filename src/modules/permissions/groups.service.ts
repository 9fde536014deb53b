import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { PermissionsGroup } from '../../schema/permissions-group.entity';
import { GroupView, MemberView, toMemberView } from './permissions.dto';
import { PermissionsRepository } from './permissions.repository';

const NAME_TAKEN = 'A group with that name already exists.';

@Injectable()
export class GroupsService {
  constructor(private readonly repo: PermissionsRepository) {}

  /** Admins see every group; a group manager sees the groups they manage; anyone else is refused. */
  async list(caller: AuthUser): Promise<GroupView[]> {
    if (caller.isSuperuser) return this.repo.groupsWithCounts();
    const managed = await this.repo.managedGroupIds(caller.id);
    if (managed.length === 0) throw new ForbiddenError();
    return this.repo.groupsWithCounts(managed);
  }

  async get(id: number): Promise<GroupView & { members: MemberView[] }> {
    const [group] = await this.repo.groupsWithCounts([id]);
    if (!group) throw new NotFoundError();
    return { ...group, members: (await this.repo.members(id)).map(toMemberView) };
  }

  create(name: string): Promise<GroupView> {
    return this.repo.transaction(async (tx) => {
      if (await this.repo.findGroupByName(name, tx)) throw new MessageError(NAME_TAKEN);
      const id = await this.repo.insertGroup(name, tx);
      if (id === undefined) throw new MessageError(NAME_TAKEN);
      return (await this.repo.groupsWithCounts([id], tx))[0];
    });
  }

  rename(id: number, name: string): Promise<GroupView> {
    return this.repo.transaction(async (tx) => {
      await this.editable(id, tx);
      const holder = await this.repo.findGroupByName(name, tx);
      if (holder && holder.id !== id) throw new MessageError(NAME_TAKEN);
      if (!(await this.repo.renameGroup(id, name, tx))) throw new MessageError(NAME_TAKEN);
      return (await this.repo.groupsWithCounts([id], tx))[0];
    });
  }

  /** Its memberships go with it; a member who was only in this group is left in All Users. */
  delete(id: number): Promise<void> {
    return this.repo.transaction(async (tx) => {
      await this.editable(id, tx);
      await this.repo.deleteGroup(id, tx);
    });
  }

  /** The built-in groups keep their names and cannot go: ids 1 and 2 mean them to every client. */
  private async editable(id: number, tx: EntityManager): Promise<PermissionsGroup> {
    const group = await this.repo.findGroup(id, tx);
    if (!group) throw new NotFoundError();
    if (group.magic_group_type) throw new MessageError(`You cannot edit or delete the '${group.name}' permissions group.`);
    return group;
  }
}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../../schema/user.entity';
import { GroupsService } from './groups.service';
import { MembershipsService } from './memberships.service';
import { PermissionsGroup } from '../../schema/permissions-group.entity';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { PermissionsController } from './permissions.controller';
import { PermissionsRepository } from './permissions.repository';

/** Groups and memberships. UsersModule imports this one (for the membership rules), never the reverse. */
@Module({
  imports: [TypeOrmModule.forFeature([PermissionsGroup, PermissionsGroupMembership, User])],
  controllers: [PermissionsController],
  providers: [PermissionsRepository, GroupsService, MembershipsService],
  exports: [MembershipsService],
})
export class PermissionsModule {}

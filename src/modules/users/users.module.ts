import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { PermissionsModule } from '../permissions';
import { Session } from '../../schema/session.entity';
import { User } from '../../schema/user.entity';
import { UserAttributesController } from './user-attributes.controller';
import { UserAttributesService } from './user-attributes.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UserViewCache } from './user-view.cache';
import { UserViewRepository } from './user-view.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, PermissionsGroupMembership, Session]), PermissionsModule, CollectionsModule],
  controllers: [UsersController, UserAttributesController],
  providers: [UsersRepository, UsersService, UserAttributesService, UserViewRepository, UserViewCache],
  exports: [UsersRepository, UsersService],
})
export class UsersModule {}

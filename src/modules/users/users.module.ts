import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { PermissionsGroupMembership } from '../permissions/permissions-group-membership.entity';
import { PermissionsModule } from '../permissions/permissions.module';
import { Session } from '../sessions/session.entity';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UserViewCache } from './user-view.cache';
import { UserViewQuery } from './user-view.query';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, PermissionsGroupMembership, Session]), PermissionsModule, CollectionsModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, UserViewQuery, UserViewCache],
  exports: [UsersRepository, UsersService],
})
export class UsersModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PermissionsGroupMembership } from '../permissions/permissions-group-membership.entity';
import { PermissionsGroup } from '../permissions/permissions-group.entity';
import { User } from '../users/user.entity';
import { UsersModule } from '../users/users.module';
import { ApiKey } from './api-key.entity';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey, PermissionsGroup, PermissionsGroupMembership, User]), UsersModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService],
})
export class ApiKeysModule {}

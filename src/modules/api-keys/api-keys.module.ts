import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { PermissionsGroup } from '../../schema/permissions-group.entity';
import { User } from '../../schema/user.entity';
import { UsersModule } from '../users';
import { ApiKey } from '../../schema/api-key.entity';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey, PermissionsGroup, PermissionsGroupMembership, User]), UsersModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService],
})
export class ApiKeysModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../api-keys/api-key.entity';
import { PermissionsGroup } from '../permissions/permissions-group.entity';
import { User } from '../users/user.entity';
import { UsersModule } from '../users/users.module';
import { DiagnosticsService } from './diagnostics.service';
import { ProductFeedback } from './product-feedback.entity';
import { UtilController } from './util.controller';
import { UtilRepository } from './util.repository';
import { UtilService } from './util.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProductFeedback, User, PermissionsGroup, ApiKey]), UsersModule],
  controllers: [UtilController],
  providers: [
    UtilRepository,
    UtilService,
    DiagnosticsService,
  ],
})
export class UtilModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../../schema/api-key.entity';
import { PermissionsGroup } from '../../schema/permissions-group.entity';
import { User } from '../../schema/user.entity';
import { UsersModule } from '../users';
import { WarehouseModule } from '../warehouse';
import { DiagnosticsService } from './diagnostics.service';
import { ProductFeedback } from '../../schema/product-feedback.entity';
import { UtilController } from './util.controller';
import { UtilRepository } from './util.repository';
import { UtilService } from './util.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProductFeedback, User, PermissionsGroup, ApiKey]), UsersModule, WarehouseModule],
  controllers: [UtilController],
  providers: [UtilRepository, UtilService, DiagnosticsService],
})
export class UtilModule {}

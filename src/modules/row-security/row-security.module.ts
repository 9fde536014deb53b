import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Sandbox } from '../../schema/sandbox.entity';
import { WarehouseModule } from '../warehouse';
import { RowPoliciesController } from './row-policies.controller';
import { RowPoliciesRepository } from './row-policies.repository';
import { RowPoliciesService } from './row-policies.service';
import { RowSecurityService } from './row-security.service';
import { UserAttributes } from './user-attributes';

/**
 * Row and column security: the policies (`/api/mt/gtap`) and, for the dataset module, each caller's restrictions
 * (RowSecurityService), which the query engine applies (query-engine/preprocess/apply-row-policies.ts).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Sandbox]), WarehouseModule],
  controllers: [RowPoliciesController],
  providers: [RowPoliciesRepository, RowPoliciesService, RowSecurityService, UserAttributes],
  exports: [RowSecurityService],
})
export class RowSecurityModule {}

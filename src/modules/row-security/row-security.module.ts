import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Impersonation } from '../../schema/impersonation.entity';
import { Sandbox } from '../../schema/sandbox.entity';
import { WarehouseModule } from '../warehouse';
import { ImpersonationController } from './impersonation.controller';
import { ImpersonationRepository } from './impersonation.repository';
import { ImpersonationService } from './impersonation.service';
import { RowPoliciesController } from './row-policies.controller';
import { RowPoliciesRepository } from './row-policies.repository';
import { RowPoliciesService } from './row-policies.service';
import { RowSecurityService } from './row-security.service';
import { UserAttributes } from './user-attributes';

/**
 * Row and column security: the policies (`/api/mt/gtap`) and, for the dataset module, each caller's restrictions
 * (RowSecurityService), which the query engine applies (query-engine/preprocess/apply-row-policies.ts); connection
 * impersonation policies and each caller's warehouse role (ImpersonationService).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Sandbox, Impersonation]), WarehouseModule],
  controllers: [RowPoliciesController, ImpersonationController],
  providers: [RowPoliciesRepository, RowPoliciesService, RowSecurityService, UserAttributes, ImpersonationRepository, ImpersonationService],
  exports: [RowSecurityService, ImpersonationService, RowPoliciesService],
})
export class RowSecurityModule {}

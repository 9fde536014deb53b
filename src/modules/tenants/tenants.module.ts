import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Tenant } from '../../schema/tenant.entity';
import { CollectionsModule } from '../collections';
import { SettingsModule } from '../settings';
import { TenantsController } from './tenants.controller';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

/** Tenants (`/api/ee/tenant`, the `use-tenants` switch); SSO sign-in puts users in them through TenantsService. */
@Module({
  imports: [TypeOrmModule.forFeature([Tenant]), SettingsModule, CollectionsModule],
  controllers: [TenantsController],
  providers: [TenantsRepository, TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}

export { TenantsModule } from './tenants.module';
export { TenantsService } from './tenants.service';
export { signInRefusal, tenantClaim, TENANT_MSG } from './tenant-rules';

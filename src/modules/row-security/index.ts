export { RowSecurityModule } from './row-security.module';
export { RowSecurityService, type CallerPolicies } from './row-security.service';
export { ImpersonationService, type CallerImpersonation } from './impersonation.service';

export { RowSecurityModule } from './row-security.module';
export { RowSecurityService, type CallerPolicies, type WriteScope } from './row-security.service';
export { ImpersonationService, type CallerImpersonation } from './impersonation.service';
export { RowPoliciesService } from './row-policies.service';
export type { RowPolicyView } from './row-policies.dto';

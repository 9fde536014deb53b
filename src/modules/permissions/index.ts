export { MembershipsService } from './memberships.service';
export { PermissionsModule } from './permissions.module';

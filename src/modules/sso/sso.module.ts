import { Module } from '@nestjs/common';
import { SSO_GUARD } from '../../common/auth/access-plugins';
import { PermissionsModule } from '../permissions';
import { SessionsModule } from '../sessions';
import { TenantsModule } from '../tenants';
import { UsersModule } from '../users';
import { JwtSsoAuthGuard } from './jwt/jwt-sso.guard';
import { JwtSsoService } from './jwt/jwt-sso.service';
import { SamlModule } from './saml/saml.module';
import { SsoController } from './sso.controller';
import { SsoLoginService } from './sso-login.service';
import { SsoMethodGuard } from './sso-method.guard';
import { SsoUsersService } from './sso-users.service';

/**
 * Single sign-on: `/auth/sso` for JWT and SAML (the SAML service provider is SamlModule's), behind the `sso` level's
 * guard, which this module provides (SSO_GUARD: without it the level refuses to boot).
 */
@Module({
  imports: [UsersModule, PermissionsModule, SessionsModule, SamlModule, TenantsModule],
  controllers: [SsoController],
  providers: [
    SsoUsersService,
    SsoLoginService,
    JwtSsoService,
    JwtSsoAuthGuard,
    SsoMethodGuard,
    { provide: SSO_GUARD, useExisting: SsoMethodGuard },
  ],
  exports: [SsoUsersService],
})
export class SsoModule {}

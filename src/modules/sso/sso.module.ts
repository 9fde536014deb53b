import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { SSO_GUARD } from '../../common/auth/access-plugins';
import { PermissionsModule } from '../permissions/permissions.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { JwtSsoAuthGuard } from './jwt/jwt-sso.guard';
import { JwtSsoService } from './jwt/jwt-sso.service';
import { JwtSsoStrategy } from './jwt/jwt-sso.strategy';
import { SamlModule } from './saml/saml.module';
import { SsoController } from './sso.controller';
import { SsoMethodGuard } from './sso-method.guard';
import { SsoUsersService } from './sso-users.service';

/** Single sign-on: `/auth/sso` for JWT and SAML (the SAML service provider is SamlModule's), behind the `sso` level's guard. */
@Module({
  imports: [PassportModule, UsersModule, PermissionsModule, SessionsModule, SamlModule],
  controllers: [SsoController],
  providers: [
    SsoUsersService,
    JwtSsoService,
    JwtSsoStrategy,
    JwtSsoAuthGuard,
    SsoMethodGuard,
    { provide: SSO_GUARD, useExisting: SsoMethodGuard },
  ],
  exports: [SsoUsersService],
})
export class SsoModule {}

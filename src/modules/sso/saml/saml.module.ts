import { Module } from '@nestjs/common';
import { SamlSsoAuthGuard } from './saml-sso.guard';
import { SamlSsoService } from './saml-sso.service';
import { SamlStateRepository } from './saml-state.repository';
import { SamlController } from './saml.controller';

/**
 * The SAML service provider: SP metadata here; the SSO module's `/auth/sso` calls SamlSsoService.redirect() to send a
 * browser to the IdP, and its guard takes a POSTed SAMLResponse through SamlSsoAuthGuard (which runs SamlSsoStrategy;
 * the login lands on `req.ssoSamlLogin`).
 */
@Module({
  controllers: [SamlController],
  providers: [SamlStateRepository, SamlSsoService, SamlSsoAuthGuard],
  exports: [SamlSsoService, SamlSsoAuthGuard],
})
export class SamlModule {}

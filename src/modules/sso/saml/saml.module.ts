import { Module } from '@nestjs/common';
import { SamlSsoAuthGuard } from './saml-sso.guard';
import { SamlSsoService } from './saml-sso.service';
import { SamlSsoStrategy } from './saml-sso.strategy';
import { SamlStateRepository } from './saml-state.repository';
import { SamlController } from './saml.controller';

/**
 * The SAML service provider: SP metadata here; the SSO module's `/auth/sso` calls SamlSsoService.redirect() to send a
 * browser to the IdP, and takes a POSTed SAMLResponse either through SamlSsoAuthGuard (the `sso-saml` passport
 * strategy, login on `req.ssoSamlLogin`) or SamlSsoService.consume(form) directly.
 */
@Module({
  controllers: [SamlController],
  providers: [SamlStateRepository, SamlSsoService, SamlSsoStrategy, SamlSsoAuthGuard],
  exports: [SamlSsoService, SamlSsoAuthGuard],
})
export class SamlModule {}

import { Module } from '@nestjs/common';
import { SamlSsoService } from './saml-sso.service';
import { SamlStateRepository } from './saml-state.repository';
import { SamlController } from './saml.controller';

/** The SAML service provider: SP metadata here; the SSO module's /auth/sso calls SamlSsoService. */
@Module({
  controllers: [SamlController],
  providers: [SamlStateRepository, SamlSsoService],
  exports: [SamlSsoService],
})
export class SamlModule {}

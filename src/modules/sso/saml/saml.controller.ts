import { Controller, Get, Header } from '@nestjs/common';
import { Access } from '../../../common/auth/access.decorator';
import { SamlSsoService } from './saml-sso.service';

@Controller('api/saml')
export class SamlController {
  constructor(private readonly saml: SamlSsoService) {}

  /**
   * Our service-provider metadata, for the identity provider's admin (or the IdP itself) to fetch: public, as
   * metadata is meant to be, and nothing in it is secret (entity id, assertion consumer URL, our public certificate).
   */
  @Get('metadata')
  @Access('public')
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  metadata(): Promise<string> {
    return this.saml.metadata();
  }
}

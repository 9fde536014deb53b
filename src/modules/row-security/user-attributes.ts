import { Injectable } from '@nestjs/common';
import { systemAttributes, userAttributes } from '../users';
import { RowPoliciesRepository } from './row-policies.repository';

/**
 * The one place row security reads a user's attributes from: those of the last JWT or SAML sign-in overridden by the
 * administrator's `login_attributes`, as in Metabase (users/user-attributes.ts merges them), and a tenant user's
 * `@tenant.slug`, which neither can override.
 */
@Injectable()
export class UserAttributes {
  constructor(private readonly repo: RowPoliciesRepository) {}

  async attributesOf(userId: number): Promise<Record<string, unknown>> {
    const sources = await this.repo.attributeSources(userId);
    return userAttributes(sources, systemAttributes(sources.tenant_slug));
  }
}

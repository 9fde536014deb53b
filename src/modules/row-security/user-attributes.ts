import { Injectable } from '@nestjs/common';
import { RowPoliciesRepository } from './row-policies.repository';

/**
 * The one place row security reads a user's attributes from. Today the admin's `login_attributes`; attributes from
 * other sources (JWT claims) are to be merged here, login attributes overriding them as in Metabase.
 */
@Injectable()
export class UserAttributes {
  constructor(private readonly repo: RowPoliciesRepository) {}

  attributesOf(userId: number): Promise<Record<string, unknown>> {
    return this.repo.loginAttributes(userId);
  }
}

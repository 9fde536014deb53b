import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { userOf, type Reader } from '../../common/auth/shared-grant';
import { NotFoundError } from '../../common/errors/api-errors';
import type { Impersonation } from '../../schema/impersonation.entity';
import { impersonatedRole } from './impersonation-rules';
import { ImpersonationRepository } from './impersonation.repository';
import { RowPoliciesRepository } from './row-policies.repository';
import { UserAttributes } from './user-attributes';

/** What deciding a caller's role needs from the run that asks. */
export interface ImpersonationContext {
  /** Whether row security policies restrict a table of the database for the caller (both at once are refused). */
  sandboxed(dbId: number): Promise<boolean>;
  /** The user the database's connection logs in as. */
  defaultRole(dbId: number): Promise<string | null>;
}

/** A caller's impersonation, resolved once per database and run. */
export interface CallerImpersonation {
  /** The role to run under, null for none; rejects (the query fails) when the policy cannot be applied. */
  role(dbId: number): Promise<string | null>;
  /** The role as text for result-cache and shared-run keys ('' for none): results are never shared across roles. */
  key(dbId: number): Promise<string>;
}

const NONE: CallerImpersonation = { role: () => Promise.resolve(null), key: () => Promise.resolve('') };

/** Connection impersonation policies: their storage (the permissions graph writes them) and each caller's role. */
@Injectable()
export class ImpersonationService {
  constructor(
    private readonly repo: ImpersonationRepository,
    private readonly policies: RowPoliciesRepository,
    private readonly attributes: UserAttributes,
  ) {}

  async list(groupId?: number, dbId?: number): Promise<Impersonation[] | Impersonation | null> {
    if (groupId !== undefined && dbId !== undefined) return this.repo.byGroupAndDb(groupId, dbId);
    return this.repo.all();
  }

  async remove(id: number): Promise<void> {
    if (!(await this.repo.byId(id))) throw new NotFoundError();
    await this.repo.remove(id);
  }

  /** Every policy: the permissions graph shows their group and database as `impersonated`. */
  all(): Promise<Impersonation[]> {
    return this.repo.all();
  }

  replace(groupId: number, dbId: number, attribute: string, tx: EntityManager): Promise<void> {
    return this.repo.replace(groupId, dbId, attribute, tx);
  }

  removeFor(groupId: number, dbId: number, tx: EntityManager): Promise<void> {
    return this.repo.removeFor(groupId, dbId, tx);
  }

  /** The caller's impersonation. Admins and shared objects (public links, embeds) are never impersonated. */
  impersonationFor(caller: Reader, ctx: ImpersonationContext): CallerImpersonation {
    const user = userOf(caller);
    if (!user || user.isSuperuser) return NONE;
    const byDb = new Map<number, Promise<string | null>>();
    const role = (dbId: number) => {
      let found = byDb.get(dbId);
      if (!found) {
        found = this.resolve(user.id, user.groupIds, dbId, ctx);
        // Read by the key first and by the run later: a failure here must not count as unhandled.
        found.catch(() => undefined);
        byDb.set(dbId, found);
      }
      return found;
    };
    const key = (dbId: number) =>
      role(dbId).then(
        (r) => (r === null ? '' : JSON.stringify(['role', r])),
        (e: unknown) => JSON.stringify(['role-error', e instanceof Error ? e.message : String(e)]),
      );
    return { role, key };
  }

  private async resolve(userId: number, groupIds: number[], dbId: number, ctx: ImpersonationContext): Promise<string | null> {
    const policies = await this.repo.forGroups(groupIds, dbId);
    if (!policies.length) return null;
    const [readers, attributes, sandboxed, defaultRole] = await Promise.all([
      this.policies.unrestrictedGroups(groupIds, dbId),
      this.attributes.attributesOf(userId),
      ctx.sandboxed(dbId),
      ctx.defaultRole(dbId),
    ]);
    return impersonatedRole({ policies, readers, attributes, sandboxed, defaultRole });
  }
}

import { MessageError } from '../../common/errors/api-errors';
import { signInRefusal, tenantClaim, TENANT_MSG } from './tenant-rules';

describe('tenantClaim', () => {
  it('reads strings and integers as slugs, and absence as no tenant', () => {
    expect(tenantClaim('acme', '@tenant')).toBe('acme');
    expect(tenantClaim(' acme-2_b ', '@tenant')).toBe('acme-2_b');
    expect(tenantClaim(42, '@tenant')).toBe('42');
    expect(tenantClaim(undefined, '@tenant')).toBeNull();
    expect(tenantClaim(null, '@tenant')).toBeNull();
  });

  it('refuses other values with a 400 naming the claim', () => {
    for (const bad of [{ slug: 'a' }, ['a'], true, 1.5]) {
      const e = (() => {
        try {
          tenantClaim(bad, 'org');
        } catch (err) {
          return err as MessageError;
        }
      })();
      expect([e?.status, e?.message]).toEqual([400, 'Value of `org` must be a string']);
    }
  });

  it('refuses strings that are no slug', () => {
    expect(() => tenantClaim('Acme Corp', '@tenant')).toThrow(TENANT_MSG.claimSlug('@tenant'));
    expect(() => tenantClaim('', '@tenant')).toThrow(TENANT_MSG.claimSlug('@tenant'));
  });
});

describe('signInRefusal', () => {
  const on = { enabled: true };
  it('lets internal users in without a claim, and new users with or without one', () => {
    expect(signInRefusal({ ...on, slug: null, userTenantSlug: null })).toBeNull();
    expect(signInRefusal({ ...on, slug: 'acme', userTenantSlug: undefined })).toBeNull();
    expect(signInRefusal({ ...on, slug: null, userTenantSlug: undefined })).toBeNull();
    expect(signInRefusal({ ...on, slug: 'acme', userTenantSlug: 'acme' })).toBeNull();
  });

  it('refuses what COMPAT lists', () => {
    expect(signInRefusal({ ...on, slug: 'acme', userTenantSlug: null })).toBe(TENANT_MSG.internalUser);
    expect(signInRefusal({ ...on, slug: null, userTenantSlug: 'acme' })).toBe(TENANT_MSG.claimRequired);
    expect(signInRefusal({ ...on, slug: 'globex', userTenantSlug: 'acme' })).toBe(TENANT_MSG.mismatch);
  });

  it('with tenants off, refuses any claim and every tenant user', () => {
    expect(signInRefusal({ enabled: false, slug: 'acme', userTenantSlug: undefined })).toBe(TENANT_MSG.disabled);
    expect(signInRefusal({ enabled: false, slug: null, userTenantSlug: 'acme' })).toBe(TENANT_MSG.disabled);
    expect(signInRefusal({ enabled: false, slug: null, userTenantSlug: null })).toBeNull();
  });
});

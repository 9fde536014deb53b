import { isAttributeValue, providerAttributes, structuredAttributes, userAttributes } from './user-attributes';

describe('user attributes', () => {
  it('accepts strings, finite numbers, booleans and lists of those as values', () => {
    for (const ok of ['EU', 3, 0.5, false, [], ['EU', 'US'], [1, 'a', true]]) expect(isAttributeValue(ok)).toBe(true);
    for (const bad of [null, undefined, { a: 1 }, [['nested']], [null], NaN, Infinity]) expect(isAttributeValue(bad)).toBe(false);
  });

  it('puts the admin value over the provider value for the same key', () => {
    const user = { login_attributes: { region: 'EU', level: 3 }, jwt_attributes: { region: 'US', team: ['a', 'b'] } };
    expect(userAttributes(user)).toEqual({ region: 'EU', level: 3, team: ['a', 'b'] });
  });

  it('lets system attributes win over both', () => {
    const user = { login_attributes: { '@tenant.slug': 'forged' }, jwt_attributes: null };
    expect(userAttributes(user, { '@tenant.slug': 'acme' })).toEqual({ '@tenant.slug': 'acme' });
  });

  it('ignores stored values no filter can use', () => {
    expect(userAttributes({ login_attributes: { a: { b: 1 }, c: 'd' }, jwt_attributes: { e: null } })).toEqual({ c: 'd' });
    expect(userAttributes({ login_attributes: null, jwt_attributes: null })).toEqual({});
  });

  it('describes each attribute with its source, and the provider value an admin value shadows', () => {
    const user = { login_attributes: { region: 'EU', level: 3 }, jwt_attributes: { region: 'US', team: ['a'] } };
    expect(structuredAttributes(user, { '@tenant.slug': 'acme' })).toEqual({
      region: { source: 'user', frozen: false, value: 'EU', original: 'US' },
      level: { source: 'user', frozen: false, value: 3 },
      team: { source: 'jwt', frozen: false, value: ['a'] },
      '@tenant.slug': { source: 'system', frozen: true, value: 'acme' },
    });
  });

  it('keeps from the provider only usable values outside the reserved `@` names, null when none is left', () => {
    expect(providerAttributes({ team: ['a', 'b'], n: 2, '@tenant': 'x', o: { a: 1 } })).toEqual({ team: ['a', 'b'], n: 2 });
    expect(providerAttributes({ '@tenant': 'x' })).toBeNull();
  });
});

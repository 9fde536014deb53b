import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { isEmbeddingParams, mergeEmbedParams, viewerValues, type EmbeddingRule } from './embed-params';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(MessageError);
    return (e as MessageError).message;
  }
  throw new Error('not refused');
};

/** Each rule with a value from the token, from the viewer, from both, and from neither. */
describe('mergeEmbedParams', () => {
  const run = (rule: EmbeddingRule | undefined, token: boolean, viewer: boolean) =>
    mergeEmbedParams(rule ? { state: rule } : {}, token ? { state: 'TX' } : {}, viewer ? { state: 'CA' } : {});

  describe('enabled', () => {
    it('token value: applied', () => expect(run('enabled', true, false)).toEqual({ state: 'TX' }));
    it('viewer value: applied', () => expect(run('enabled', false, true)).toEqual({ state: 'CA' }));
    it('both: refused', () =>
      expect(refusal(() => run('enabled', true, true))).toBe("You can't specify a value for state if it's already set in the JWT."));
    it('neither: no value', () => expect(run('enabled', false, false)).toEqual({}));
  });

  describe('locked', () => {
    it('token value: applied', () => expect(run('locked', true, false)).toEqual({ state: 'TX' }));
    it('viewer value only: the token must set it', () =>
      expect(refusal(() => run('locked', false, true))).toBe('You must specify a value for state in the JWT.'));
    it('both: the viewer may not', () =>
      expect(refusal(() => run('locked', true, true))).toBe('You can only specify a value for state in the JWT.'));
    it('neither: refused', () => expect(refusal(() => run('locked', false, false))).toBe('You must specify a value for state in the JWT.'));
    it('an empty list from the token is a value: no filter, but set', () =>
      expect(mergeEmbedParams({ state: 'locked' }, { state: [] }, {})).toEqual({ state: [] }));
    it('a blank string from the token is no value', () =>
      expect(refusal(() => mergeEmbedParams({ state: 'locked' }, { state: ' ' }, {}))).toBe(
        'You must specify a value for state in the JWT.',
      ));
  });

  describe('disabled', () => {
    const msg = "You're not allowed to specify a value for state.";
    it('token value: refused', () => expect(refusal(() => run('disabled', true, false))).toBe(msg));
    it('viewer value: refused', () => expect(refusal(() => run('disabled', false, true))).toBe(msg));
    it('both: refused', () => expect(refusal(() => run('disabled', true, true))).toBe(msg));
    it('neither: no value', () => expect(run('disabled', false, false)).toEqual({}));
  });

  describe('unknown (not in the whitelist)', () => {
    it('token value: refused', () => expect(refusal(() => run(undefined, true, false))).toBe('Unknown parameter state.'));
    it('viewer value: refused', () => expect(refusal(() => run(undefined, false, true))).toBe('Unknown parameter state.'));
    it('both: refused', () => expect(refusal(() => run(undefined, true, true))).toBe('Unknown parameter state.'));
    it('neither: no value', () => expect(run(undefined, false, false)).toEqual({}));
    it('no whitelist at all: every value is unknown', () =>
      expect(refusal(() => mergeEmbedParams(null, {}, { x: 1 }))).toBe('Unknown parameter x.'));
  });

  it('null and blank values count as not given; the rest merge', () => {
    const rules = { a: 'enabled', b: 'locked', c: 'disabled' } as const;
    expect(mergeEmbedParams(rules, { b: 5, c: null }, { a: ['x', 'y'], c: '' })).toEqual({ a: ['x', 'y'], b: 5 });
  });
});

describe('viewerValues', () => {
  it('reads ?slug=value, repeated slugs as lists, blank as no value, and leaves values as sent', () => {
    expect(viewerValues({ state: 'TX', city: ['A', 'B'], empty: '', n: '12' })).toEqual({
      state: 'TX',
      city: ['A', 'B'],
      empty: null,
      n: '12',
    });
  });

  it('reads `parameters` as a JSON map; the endpoint options are no slugs', () => {
    expect(
      viewerValues({ parameters: '{"state":["TX"],"n":3}', format_rows: 'true', pivot_results: 'false', dashboard_load_id: 'x' }),
    ).toEqual({ state: ['TX'], n: 3 });
  });

  it('refuses `parameters` that is not a JSON map', () => {
    for (const bad of ['{', '[1]', 'null', '3']) {
      expect(() => viewerValues({ parameters: bad })).toThrow(ValidationError);
    }
  });
});

describe('isEmbeddingParams', () => {
  it('takes maps of enabled, locked and disabled only', () => {
    expect(isEmbeddingParams({})).toBe(true);
    expect(isEmbeddingParams({ a: 'enabled', b: 'locked', c: 'disabled' })).toBe(true);
    for (const bad of [null, [], 'enabled', { a: 'on' }, { a: null }, { a: true }]) expect(isEmbeddingParams(bad)).toBe(false);
  });
});

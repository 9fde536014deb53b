import type { DashboardParameter } from '../../web/src/app/api/dashboard-types';
import { clickAction, clickBehaviorOf, mappingOf, type ClickBehavior } from '../../web/src/app/dashboards/click-behavior';

const cols = [{ name: 'id' }, { name: 'title' }, { name: 'category' }];
const row = [7, 'Lamp & shade', 'Home'];
const CATEGORY: DashboardParameter = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' };

describe("a dashcard's click behaviour", () => {
  it('filters this dashboard with the mapped columns of the clicked row, only for filters it has', () => {
    const b: ClickBehavior = { type: 'crossfilter', parameterMapping: mappingOf({ cat: 'category', gone: 'title', none: null }) };
    expect(clickAction(b, row, cols, [CATEGORY])).toEqual({ kind: 'filter', values: { cat: ['Home'] } });
    expect(clickAction(b, row, cols, [])).toBeNull();
  });

  it("fills a URL template with the row's values, encoded, and refuses what is not a web or mail link", () => {
    expect(clickAction({ type: 'link', linkType: 'url', linkTemplate: 'https://x.test/p/{{title}}?id={{ id }}' }, row, cols, [])).toEqual({
      kind: 'url',
      url: 'https://x.test/p/Lamp%20%26%20shade?id=7',
    });
    expect(clickAction({ type: 'link', linkType: 'url', linkTemplate: 'javascript:alert({{id}})' }, row, cols, [])).toBeNull();
  });

  it("opens another dashboard with its filters set from the row's columns (the target's parameter ids)", () => {
    const b: ClickBehavior = {
      type: 'link',
      linkType: 'dashboard',
      targetId: 12,
      parameterMapping: mappingOf({ p1: 'category', p2: 'id' }),
    };
    expect(clickAction(b, row, cols, [])).toEqual({ kind: 'dashboard', id: 12, values: { p1: ['Home'], p2: ['7'] } });
    expect(clickAction({ type: 'link', linkType: 'dashboard', targetId: 12 }, row, cols, [])).toEqual({
      kind: 'dashboard',
      id: 12,
      values: {},
    });
    expect(clickAction({ type: 'link', linkType: 'question', targetId: 3 }, row, cols, [])).toEqual({ kind: 'path', path: '/question/3' });
  });

  it('reads only click behaviours it can follow', () => {
    expect(clickBehaviorOf({ click_behavior: { type: 'link', linkType: 'dashboard' } })).toBeNull();
    expect(clickBehaviorOf({ click_behavior: { type: 'link', linkType: 'url', linkTemplate: '' } })).toBeNull();
    expect(clickBehaviorOf({})).toBeNull();
    expect(clickBehaviorOf({ click_behavior: { type: 'link', linkType: 'dashboard', targetId: 4 } })).toEqual({
      type: 'link',
      linkType: 'dashboard',
      targetId: 4,
    });
  });
});

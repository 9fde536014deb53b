import { ValidationError } from '../../common/errors/api-errors';
import { describeDashboardChange } from './dashboard-snapshot';
import { parseDashcards, parseTabs } from './dashcard-layout';
import { uniqueIds } from './dashboards.dto';

const card = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  card_id: 7,
  row: 0,
  col: 0,
  size_x: 4,
  size_y: 4,
  parameter_mappings: [],
  series: [],
  ...extra,
});

describe('dashcard layout parsing', () => {
  it('takes dashcards with defaults, series as maps or ids, and new (negative) ids', () => {
    const [d] = parseDashcards([{ id: -1, card_id: 3, series: [{ id: 4 }, 5] }]);
    expect(d).toMatchObject({
      id: -1,
      card_id: 3,
      row: 0,
      col: 0,
      size_x: 4,
      size_y: 4,
      series: [4, 5],
      parameter_mappings: [],
      visualization_settings: {},
      inline_parameters: [],
    });
  });

  it('refuses bad sizes, bad mappings, and a mapping onto a card that is not on the dashcard', () => {
    expect(() => parseDashcards([card(1, { size_x: 0 })])).toThrow(ValidationError);
    expect(() => parseDashcards([card(1, { parameter_mappings: [{ parameter_id: 'p' }] })])).toThrow(/parameter_id/);
    expect(() => parseDashcards([card(1, { parameter_mappings: [{ parameter_id: 'p', card_id: 8, target: [] }] })])).toThrow(
      /not on dashcard/,
    );
    expect(parseDashcards([card(1, { series: [8], parameter_mappings: [{ parameter_id: 'p', card_id: 8, target: [] }] })])).toHaveLength(1);
  });

  it('refuses tabs without a name, and lists whose ids repeat', () => {
    expect(() => parseTabs([{ id: 1, name: ' ' }])).toThrow(ValidationError);
    expect(uniqueIds([{ id: 1 }, { id: 1 }])).toBe(false);
    expect(uniqueIds([{ id: 1 }, { id: -1 }, {}])).toBe(true);
    expect(uniqueIds('x')).toBe(false);
  });
});

describe('dashboard revision sentences', () => {
  const snap = (cards: unknown[], tabs: unknown[] = [], extra: Record<string, unknown> = {}) => ({
    id: 1,
    name: 'D',
    cards,
    tabs,
    ...extra,
  });
  const dc = (id: number, row = 0) => ({ id, card_id: 1, row, col: 0, size_x: 4, size_y: 4 });

  it('says what happened to the cards and tabs', () => {
    expect(describeDashboardChange(snap([]), snap([dc(1)]))).toBe('added a card.');
    expect(describeDashboardChange(snap([dc(1), dc(2)]), snap([dc(1)]))).toBe('removed a card.');
    expect(describeDashboardChange(snap([dc(1)]), snap([dc(1, 5)]))).toBe('rearranged the cards.');
    expect(describeDashboardChange(snap([]), snap([], [{ id: 1, name: 'A' }]))).toBe('added a tab.');
    expect(describeDashboardChange(snap([], [], { name: 'A' }), snap([dc(1)], [], { name: 'B' }))).toBe(
      'renamed this Dashboard from "A" to "B" and added a card.',
    );
    expect(describeDashboardChange(snap([]), snap([]))).toBeNull();
  });
});

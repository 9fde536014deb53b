import { LegacyMetric, MacroRow, Segment } from './macro.entity';

/** The two kinds of legacy macros, as the revision and related APIs name them. */
export type MacroModel = 'segment' | 'metric';

export const MACRO_ENTITIES = { segment: Segment, metric: LegacyMetric } as const;

/** How revision sentences name each kind (`renamed this Segment from ...`). */
export const MACRO_LABELS: Readonly<Record<MacroModel, string>> = { segment: 'Segment', metric: 'Metric' };

export type AnyMacro = MacroRow & { how_is_this_calculated?: string | null };

/** The keys PUT may clear by sending null (Metabase's `:present` keys); the others are only set when non-null. */
export const CLEARABLE: Readonly<Record<MacroModel, readonly string[]>> = {
  segment: ['description', 'caveats', 'points_of_interest'],
  metric: ['description', 'caveats', 'points_of_interest', 'how_is_this_calculated'],
};
export const SET_WHEN_GIVEN = ['archived', 'definition', 'name', 'show_in_getting_started'] as const;

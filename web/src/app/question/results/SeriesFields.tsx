import { ColorInput, Fieldset, Select, Stack, Text, TextInput } from '@mantine/core';
import type { Dataset, Settings } from '../../../visualizations';
import { buildCartesian, type Series } from '../../../visualizations/charts/series';
import { SERIES_COLORS } from '../../../visualizations/theme';

// A line, bar or area chart may draw one series another way (Metabase's "Display type" per series).
const MIXABLE = new Set(['bar', 'line', 'area', 'combo']);
const DISPLAYS = [
  { value: 'bar', label: 'Bar' },
  { value: 'line', label: 'Line' },
  { value: 'area', label: 'Area' },
];
// More series than this is a breakout of many values: a field each would bury the panel.
const MAX_LISTED = 12;

type SeriesSettings = Record<string, Record<string, unknown>>;

/**
 * Each series of a cartesian chart as the results draw it (a metric, or a breakout value): its title, colour and,
 * for line, bar, area and combo, how it is drawn; kept in `series_settings` by the series' key, as Metabase does.
 */
export function SeriesFields({
  display,
  settings,
  data,
  onChange,
}: {
  display: string;
  settings: Settings;
  data: Dataset;
  onChange(s: Settings): void;
}) {
  const series = buildCartesian(display, data, settings).series;
  if (series.length === 0) return null;
  const all = (settings['series_settings'] ?? {}) as SeriesSettings;
  const set = (s: Series, patch: Record<string, unknown>) => {
    const next = { ...(all[s.key] ?? {}), ...patch };
    for (const k of Object.keys(patch)) if (next[k] === undefined || next[k] === '') delete next[k];
    onChange({ ...settings, series_settings: { ...all, [s.key]: next } });
  };
  return (
    <Stack gap="xs" role="group" aria-label="Series">
      <Text fw={600} size="sm">
        Series
      </Text>
      {series.slice(0, MAX_LISTED).map((s) => {
        const own = all[s.key] ?? {};
        return (
          <Fieldset key={s.key} legend={s.key} variant="filled" p="xs">
            <Stack gap={6}>
              <TextInput
                label={`Title of ${s.key}`}
                placeholder={s.name}
                value={typeof own.title === 'string' ? own.title : ''}
                onChange={(e) => set(s, { title: e.currentTarget.value })}
              />
              <ColorInput
                label={`Colour of ${s.key}`}
                format="hex"
                eyeDropperButtonProps={{ 'aria-label': `Pick the colour of ${s.key} from the screen` }}
                swatches={SERIES_COLORS}
                placeholder={s.color}
                value={typeof own.color === 'string' ? own.color : ''}
                onChange={(c) => set(s, { color: c })}
              />
              {MIXABLE.has(display) && (
                <Select
                  label={`Show ${s.key} as`}
                  data={DISPLAYS}
                  value={s.display === 'scatter' ? 'line' : s.display}
                  allowDeselect={false}
                  onChange={(v) => v && set(s, { display: v })}
                />
              )}
            </Stack>
          </Fieldset>
        );
      })}
      {series.length > MAX_LISTED && (
        <Text size="sm" c="dimmed">
          {series.length - MAX_LISTED} more series keep their own colours.
        </Text>
      )}
    </Stack>
  );
}

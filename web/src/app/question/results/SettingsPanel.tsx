import { Drawer, MultiSelect, NumberInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { Settings } from '../../../visualizations';
import type { ResultColumn } from '../../api/dataset';
import { ColumnFormatFields } from './ColumnFormatFields';
import { SeriesFields } from './SeriesFields';

const CARTESIAN = new Set(['bar', 'line', 'area', 'combo', 'row', 'scatter', 'waterfall']);

/** The columns a settings field may name: a result's, or a saved question's `result_metadata`. */
export interface SettingsColumn {
  name: string;
  display_name?: string;
}

/** The visualization settings panel of a question (a drawer beside its results). */
export function SettingsPanel({
  display,
  settings,
  cols,
  rows,
  onChange,
  onClose,
}: {
  display: string;
  settings: Settings;
  cols: ResultColumn[];
  /** The rows the results show: a chart's series (a breakout's values) come from them. */
  rows: unknown[][];
  onChange(s: Settings): void;
  onClose(): void;
}) {
  return (
    <Drawer opened closeButtonProps={{ 'aria-label': 'Close' }} onClose={onClose} title="Visualization settings" position="right" size="sm">
      <Stack gap="sm">
        <TextInput
          label="Title"
          value={String(settings['card.title'] ?? '')}
          onChange={(e) => onChange({ ...settings, 'card.title': e.currentTarget.value || undefined })}
        />
        <ChartSettingsFields display={display} settings={settings} cols={cols} onSet={(k, v) => onChange({ ...settings, [k]: v })} />
        {CARTESIAN.has(display) && cols.length > 0 && (
          <SeriesFields display={display} settings={settings} data={{ cols, rows }} onChange={onChange} />
        )}
        <ColumnFormatFields cols={cols} settings={settings} onChange={onChange} />
      </Stack>
    </Drawer>
  );
}

/**
 * The chosen visualization's basic settings (the keys web/src/visualizations reads): the axes' columns, values on
 * the chart, a goal line for the cartesian charts; the legend and total for a pie; the number's column. Shared by a
 * question's panel and a dashboard card's own settings (which override the question's on that dashboard).
 */
export function ChartSettingsFields({
  display,
  settings,
  cols,
  onSet,
}: {
  display: string;
  settings: Settings;
  cols: SettingsColumn[];
  onSet(key: string, value: unknown): void;
}) {
  const set = onSet;
  const columns = cols.map((c) => ({ value: c.name, label: c.display_name ?? c.name }));
  const list = (key: string) => (Array.isArray(settings[key]) ? (settings[key] as string[]) : []);
  return (
    <>
      {CARTESIAN.has(display) && (
        <>
          <MultiSelect label="X-axis" data={columns} value={list('graph.dimensions')} onChange={(v) => set('graph.dimensions', v)} />
          <MultiSelect label="Y-axis" data={columns} value={list('graph.metrics')} onChange={(v) => set('graph.metrics', v)} />
          <Switch
            label="Show values on the chart"
            checked={settings['graph.show_values'] === true}
            onChange={(e) => set('graph.show_values', e.currentTarget.checked)}
          />
          <Switch
            label="Goal line"
            checked={settings['graph.show_goal'] === true}
            onChange={(e) => set('graph.show_goal', e.currentTarget.checked)}
          />
          {settings['graph.show_goal'] === true && (
            <>
              <NumberInput
                label="Goal value"
                value={typeof settings['graph.goal_value'] === 'number' ? settings['graph.goal_value'] : ''}
                onChange={(v) => set('graph.goal_value', typeof v === 'number' ? v : undefined)}
              />
              <TextInput
                label="Goal label"
                value={String(settings['graph.goal_label'] ?? '')}
                onChange={(e) => set('graph.goal_label', e.currentTarget.value)}
              />
            </>
          )}
        </>
      )}
      {display === 'pie' && (
        <>
          <Switch
            label="Show the legend"
            checked={settings['pie.show_legend'] !== false}
            onChange={(e) => set('pie.show_legend', e.currentTarget.checked)}
          />
          <Switch
            label="Show the total"
            checked={settings['pie.show_total'] !== false}
            onChange={(e) => set('pie.show_total', e.currentTarget.checked)}
          />
        </>
      )}
      {(display === 'scalar' || display === 'smartscalar') && (
        <Select
          label="Column"
          data={columns}
          value={typeof settings['scalar.field'] === 'string' ? settings['scalar.field'] : null}
          onChange={(v) => set('scalar.field', v ?? undefined)}
        />
      )}
      {!CARTESIAN.has(display) && display !== 'pie' && display !== 'scalar' && display !== 'smartscalar' && (
        <Text size="sm" c="dimmed">
          This visualization has no other settings here yet.
        </Text>
      )}
    </>
  );
}

import { Alert, Box, Button, Center, Drawer, Group, Loader, Menu, Select, Table, Text, useComputedColorScheme } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { isApiError } from '../../api/client';
import { download, type DownloadFormat, type ParameterValue } from '../../api/dataset';
import { fileName } from '../../../dashboard/download';
import { notifyError } from '../../notify';
import { supportedDisplays, Visualization, type Settings, type VisualizationProps } from '../../../visualizations';
import type { Mbql5Query } from '../../notebook/types';
import { drillActions, type DrillAction, type DrillClick } from '../drill/drill';
import { DrillMenu } from '../drill/DrillMenu';
import type { RunState } from '../use-runner';
import { formatCell } from './format';
import { ResultsTable } from './ResultsTable';
import { SettingsPanel } from './SettingsPanel';

const DISPLAY_LABELS: Record<string, string> = {
  table: 'Table',
  object: 'Detail',
  scalar: 'Number',
  smartscalar: 'Trend',
  progress: 'Progress',
  bar: 'Bar',
  line: 'Line',
  area: 'Area',
  combo: 'Combo',
  row: 'Row',
  scatter: 'Scatter',
  waterfall: 'Waterfall',
  pie: 'Pie',
  funnel: 'Funnel',
  gauge: 'Gauge',
  pivot: 'Pivot table',
  map: 'Map',
};

export type DownloadTarget = { cardId: number; parameters: ParameterValue[] } | { query: Record<string, unknown> };

/**
 * The answer: the row count and time, the visualization picker and its settings, downloads, and the rows as the
 * virtualized table (display "table") or the chosen visualization. A row of the table opens its object detail.
 */
export function ResultsPane(props: {
  runner: RunState;
  display: string;
  settings: Settings;
  onDisplay(display: string): void;
  onSettings(settings: Settings): void;
  name: string;
  downloadTarget: DownloadTarget;
  /** The structured query the answer is of (null for SQL): a click on a value then offers drill-through. */
  drillQuery?: Mbql5Query | null;
  onDrill?(action: DrillAction): void;
  /** Drawn over time-series charts (timeline events); the toggle and the event form come from the page. */
  markers?: VisualizationProps['markers'];
  timelineControls?: ReactNode;
}) {
  const { runner, display } = props;
  const scheme = useComputedColorScheme('light');
  const [detail, setDetail] = useState<number | null>(null);
  const [drill, setDrill] = useState<{ click: DrillClick; at: { x: number; y: number } } | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The answer says what its viewer may download; a refused download (403: the grants changed since) hides the menu too.
  const [refused, setRefused] = useState(false);
  const result = runner.result;
  const downloads = result?.data.download_perms ?? 'full';
  const mayDownload = !refused && downloads !== 'none';

  /** A click on a value: the drill menu when the query offers any action there, else the row's detail. */
  const onValue = (row: number, col: number, at: { x: number; y: number } | undefined): boolean => {
    const query = props.drillQuery;
    if (!query || !result || !props.onDrill) return false;
    const click: DrillClick = { query, cols: result.data.cols, row: result.data.rows[row] ?? [], colIndex: col };
    if (!drillActions(click, [], '').length) return false;
    setDrill({ click, at: at ?? { x: window.innerWidth / 2, y: window.innerHeight / 2 } });
    return true;
  };

  const onDownload = async (format: DownloadFormat) => {
    try {
      const blob = await download(props.downloadTarget, format);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = fileName(props.name, format);
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) {
      if (isApiError(e) && e.status === 403) setRefused(true);
      notifyError(e instanceof Error ? e : String(e));
    }
  };

  return (
    <Box component="section" aria-label="Results">
      <Group justify="space-between" mb="xs">
        <Text size="sm" aria-live="polite">
          {runner.running ? 'Running…' : result ? summary(result.data.rows.length, runner.elapsed) : ''}
        </Text>
        <Group gap="xs">
          <Select
            aria-label="Visualization"
            size="xs"
            w={150}
            data={supportedDisplays.map((d) => ({ value: d, label: DISPLAY_LABELS[d] ?? d }))}
            value={supportedDisplays.includes(display) ? display : 'table'}
            onChange={(v) => v && props.onDisplay(v)}
            allowDeselect={false}
          />
          <Button size="xs" variant="default" onClick={() => setSettingsOpen(true)}>
            Settings
          </Button>
          {result && mayDownload && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button size="xs" variant="default">
                  Download results
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {downloads === 'limited' && <Menu.Label>You may download up to 10,000 rows.</Menu.Label>}
                {(['csv', 'xlsx', 'json'] as const).map((f) => (
                  <Menu.Item key={f} onClick={() => void onDownload(f)}>
                    .{f}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      {runner.running && !result ? (
        <Center h={200}>
          <Loader aria-label="Running the query" />
        </Center>
      ) : !result ? (
        <Center h={120}>
          <Text c="dimmed">{runner.error ? 'No results: the query failed.' : 'Run the query to see its results.'}</Text>
        </Center>
      ) : display === 'table' || !supportedDisplays.includes(display) ? (
        <ResultsTable
          cols={result.data.cols}
          rows={result.data.rows}
          settings={props.settings}
          onRowClick={setDetail}
          onCellClick={onValue}
        />
      ) : (
        <Box h={400}>
          <Visualization
            display={display}
            settings={props.settings}
            data={result.data}
            theme={scheme === 'dark' ? 'night' : 'light'}
            onClickCell={(e) => {
              if (!onValue(e.rowIndex, e.colIndex, e.position)) setDetail(e.rowIndex);
            }}
            markers={props.markers}
          />
        </Box>
      )}
      {result && props.timelineControls}
      {drill && props.onDrill && (
        <DrillMenu
          click={drill.click}
          at={drill.at}
          onClose={() => setDrill(null)}
          onDrill={(a) => {
            setDrill(null);
            props.onDrill?.(a);
          }}
        />
      )}
      {result && detail !== null && result.data.rows[detail] && (
        <Drawer
          opened
          closeButtonProps={{ 'aria-label': 'Close' }}
          onClose={() => setDetail(null)}
          title={`Row ${detail + 1}`}
          position="right"
          size="md"
        >
          <Table aria-label="Object detail">
            <Table.Tbody>
              {result.data.cols.map((c, i) => (
                <Table.Tr key={`${c.name}-${i}`}>
                  <Table.Th scope="row">{c.display_name}</Table.Th>
                  <Table.Td>{formatCell(result.data.rows[detail][i], c, props.settings)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Drawer>
      )}
      {settingsOpen && (
        <SettingsPanel
          display={display}
          settings={props.settings}
          cols={result?.data.cols ?? []}
          rows={result?.data.rows ?? []}
          onChange={props.onSettings}
          onClose={() => setSettingsOpen(false)}
        />
      )}
      {runner.error && result && (
        <Alert color="red" mt="xs">
          {runner.error}
        </Alert>
      )}
    </Box>
  );
}

/** "Showing 1,234 rows in 56 ms": the rows shown (the ad-hoc cap is 2,000) and the time the run took. */
function summary(rows: number, elapsed: number | null): string {
  const shown = `Showing ${rows.toLocaleString()} ${rows === 1 ? 'row' : 'rows'}`;
  return elapsed === null ? shown : `${shown} in ${elapsed.toLocaleString()} ms`;
}

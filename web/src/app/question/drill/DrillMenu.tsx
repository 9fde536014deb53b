import { Menu } from '@mantine/core';
import { Fragment, useMemo } from 'react';
import { sourceColumns } from '../../notebook/columns';
import { useTableMetadata } from '../../notebook/api';
import { drillActions, type DrillAction, type DrillClick } from './drill';

const SECTIONS: Array<{ id: DrillAction['section']; label: string }> = [
  { id: 'filter', label: 'Filter by this value' },
  { id: 'records', label: 'See the records' },
  { id: 'zoom', label: 'Zoom' },
  { id: 'xray', label: 'Automatic insights' },
  { id: 'breakout', label: 'Break out by' },
];

/** The source table of a one-stage query on a table: its columns are the ones a break out can use. */
function sourceTable(click: DrillClick): number | undefined {
  const only = click.query.stages.length === 1 ? click.query.stages[0] : undefined;
  return typeof only?.['source-table'] === 'number' ? only['source-table'] : undefined;
}

/**
 * The drill-through menu at the clicked point (client coordinates `at`): the actions drill.ts offers for the click,
 * by section. Choosing one hands its new query to `onDrill`; Escape or a click elsewhere closes it.
 */
export function DrillMenu(props: { click: DrillClick; at: { x: number; y: number }; onDrill(a: DrillAction): void; onClose(): void }) {
  const { click } = props;
  const table = sourceTable(click);
  const meta = useTableMetadata(table);
  const actions = useMemo(() => {
    const columns = meta.data ? sourceColumns(meta.data, false) : [];
    return drillActions(click, columns, meta.data?.display_name ?? 'records');
  }, [click, meta.data]);

  return (
    <Menu opened onChange={(open) => !open && props.onClose()} position="bottom-start" shadow="md" width={240} trapFocus>
      <Menu.Target>
        <button
          type="button"
          aria-label="Actions for this value"
          tabIndex={-1}
          style={{ position: 'fixed', left: props.at.x, top: props.at.y, width: 1, height: 1, padding: 0, border: 0, opacity: 0 }}
        />
      </Menu.Target>
      <Menu.Dropdown aria-label="Actions for this value" mah={420} style={{ overflowY: 'auto' }}>
        {SECTIONS.map((s) => {
          const items = actions.filter((a) => a.section === s.id);
          if (!items.length) return null;
          return (
            <Fragment key={s.id}>
              {s.id !== 'records' && s.id !== 'zoom' && <Menu.Label>{s.label}</Menu.Label>}
              {items.map((a) => (
                <Menu.Item key={a.id} onClick={() => props.onDrill(a)}>
                  {a.label}
                </Menu.Item>
              ))}
            </Fragment>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

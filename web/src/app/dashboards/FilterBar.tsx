import { Button, Group } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { DashboardParameter } from '../api/dashboard-view';
import { FilterWidget } from './FilterWidget';
import type { FilterValues } from './params';

/**
 * The filter bar: a widget per parameter. With auto-apply each change applies at once; without it the changes wait
 * for "Apply" (the dashboard's `auto_apply_filters`), so a slow dashboard runs once for several changes.
 */
export function FilterBar(props: {
  dashboardId: number;
  parameters: DashboardParameter[];
  values: FilterValues;
  autoApply: boolean;
  onApply: (values: FilterValues) => void;
  canLoad: boolean;
}) {
  const [pending, setPending] = useState<FilterValues>(props.values);
  useEffect(() => setPending(props.values), [props.values]);
  if (props.parameters.length === 0) return null;
  const shown = props.autoApply ? props.values : pending;
  const dirty = !props.autoApply && JSON.stringify(pending) !== JSON.stringify(props.values);
  const change = (id: string, v: unknown) => {
    const next = { ...shown, [id]: v };
    if (props.autoApply) props.onApply(next);
    else setPending(next);
  };
  return (
    <Group role="group" aria-label="Filters" align="flex-end" gap="sm" data-testid="filter-bar">
      {props.parameters.map((p) => (
        <FilterWidget
          key={p.id}
          dashboardId={props.dashboardId}
          parameter={p}
          parameters={props.parameters}
          values={shown}
          value={shown[p.id]}
          onChange={(v) => change(p.id, v)}
          canLoad={props.canLoad}
        />
      ))}
      {!props.autoApply && (
        <Button disabled={!dirty} onClick={() => props.onApply(pending)}>
          Apply
        </Button>
      )}
    </Group>
  );
}

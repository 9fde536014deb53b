import { Button, Checkbox, CloseButton, Group, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useValidFilterFields } from '../../api/dashboard-edit';
import type { DashboardParameter, DashcardData } from '../../api/dashboard-view';
import { FilterWidget } from '../FilterWidget';
import { FILTER_TYPES, slugify } from '../params';
import { wiredFields } from './mapping';

/**
 * The settings of the filter being edited: its label, type, default value, whether it is required, and which other
 * filters narrow its values (linked filters; offered from `/api/dashboard/params/valid-filter-fields`, which says
 * whose fields are connected to this one's). Wiring it to each card happens on the cards themselves.
 */
export function FilterEditor(props: {
  dashboardId: number;
  parameter: DashboardParameter;
  parameters: DashboardParameter[];
  dashcards: DashcardData[];
  /** Saved already: its values can be listed by the server. */
  saved: boolean;
  onChange: (p: DashboardParameter) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const p = props.parameter;
  const others = props.parameters.filter((o) => o.id !== p.id);
  const mine = wiredFields(p, props.dashcards);
  const theirs = new Map(others.map((o) => [o.id, wiredFields(o, props.dashcards)]));
  const valid = useValidFilterFields(mine, [...new Set([...theirs.values()].flat())]);
  const connected = (o: DashboardParameter) => {
    if (!valid.data) return true;
    const ok = new Set(Object.values(valid.data).flat());
    return (theirs.get(o.id) ?? []).some((f) => ok.has(f));
  };
  const typeKey = `${p.sectionId ?? ''}|${p.type}`;
  return (
    <Paper withBorder p="md" component="section" aria-label="Filter settings" w={320}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Filter settings
          </Title>
          <CloseButton aria-label="Close the filter settings" onClick={props.onClose} />
        </Group>
        <TextInput
          label="Label"
          value={p.name}
          onChange={(e) => props.onChange({ ...p, name: e.currentTarget.value, slug: slugify(e.currentTarget.value) })}
        />
        <Select
          label="Filter type"
          data={FILTER_TYPES.map((t) => ({ value: `${t.sectionId}|${t.type}`, label: t.label }))}
          value={typeKey}
          allowDeselect={false}
          onChange={(v) => {
            if (!v) return;
            const [sectionId, type] = v.split('|');
            props.onChange({ ...p, sectionId, type, default: undefined });
          }}
        />
        <FilterWidget
          dashboardId={props.dashboardId}
          parameter={{ ...p, name: 'Default value', required: false }}
          parameters={props.parameters}
          values={{}}
          value={p.default}
          onChange={(v) => props.onChange({ ...p, default: v ?? undefined })}
          canLoad={props.saved}
        />
        <Switch
          label="Always require a value"
          checked={p.required === true}
          onChange={(e) => props.onChange({ ...p, required: e.currentTarget.checked })}
        />
        {p.required === true && p.default === undefined && (
          <Text size="sm" c="red">
            A required filter needs a default value.
          </Text>
        )}
        {others.length > 0 && (
          <Checkbox.Group
            label="Limit this filter's choices by"
            description="Only values that match the linked filters' values are offered."
            value={p.filteringParameters ?? []}
            onChange={(ids) => props.onChange({ ...p, filteringParameters: ids })}
          >
            <Stack gap={4} mt={4}>
              {others.map((o) => (
                <Checkbox
                  key={o.id}
                  value={o.id}
                  label={connected(o) ? o.name : `${o.name} (its column is not connected to this one's)`}
                  disabled={!connected(o) && !(p.filteringParameters ?? []).includes(o.id)}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        <Text size="sm" c="dimmed">
          Choose the column it filters on each card of the dashboard.
        </Text>
        <Button color="red" variant="light" onClick={props.onRemove}>
          Remove this filter
        </Button>
      </Stack>
    </Paper>
  );
}

import { Alert, Button, Center, Group, Modal, Paper, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { executeAction, prefillAction, type DashcardData } from '../api/dashboard-view';
import { notifySuccess } from '../notify';

/** The action parameter a mapping's target names: `["variable", ["template-tag", id]]`. */
function targetTag(target: unknown): string | null {
  const inner: unknown = Array.isArray(target) ? target[1] : null;
  return Array.isArray(inner) && inner[0] === 'template-tag' && typeof inner[1] === 'string' ? inner[1] : null;
}

const labelOf = (p: { id: string; slug?: string; name?: string; 'display-name'?: string }) => p['display-name'] ?? p.name ?? p.slug ?? p.id;

/**
 * An action button: its form asks for the action's parameters the dashboard's filters do not give (those mapped to a
 * filter come from it), prefilled as the server allows it (an update's current row, once a filter names the row),
 * and runs the action as this dashcard's.
 */
export function ActionCard(props: {
  dashboardId: number;
  dashcard: DashcardData;
  /** The dashboard's filter values by parameter id. */
  values: Record<string, unknown>;
  editActions?: ReactNode;
}) {
  const dc = props.dashcard;
  const action = dc.action;
  const label = String(dc.visualization_settings['button.label'] ?? action?.name ?? 'Run');
  const mapped = new Map(dc.parameter_mappings.map((m) => [m.parameter_id, m.target]));
  // By the dashboard's parameter ids (as execute takes them) and by the action's own (as the prefill takes them). A
  // filter holds a list; an action's parameter takes one value.
  const fromFilters: Record<string, unknown> = {};
  const forAction: Record<string, unknown> = {};
  for (const [id, v] of Object.entries(props.values)) {
    if (!mapped.has(id) || v === null || v === undefined) continue;
    const one = Array.isArray(v) && v.length === 1 ? v[0] : v;
    fromFilters[id] = one;
    const tag = targetTag(mapped.get(id));
    if (tag) forAction[tag] = one;
  }
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [prefillError, setPrefillError] = useState<string | null>(null);
  const hidden = action?.visualization_settings?.fields ?? {};
  const asked = (action?.parameters ?? []).filter((p) => !hidden[p.id]?.hidden && !(p.id in forAction));
  const run = useMutation({
    mutationFn: () => {
      const types = new Map((action?.parameters ?? []).map((p) => [p.id, p.type]));
      // A number parameter's value goes as a number (a SQL action's number tag wants one).
      const extra = Object.fromEntries(
        Object.entries(typed)
          .filter(([, v]) => v.trim() !== '')
          .map(([k, v]) => [k, types.get(k)?.startsWith('number') && Number.isFinite(Number(v)) ? Number(v) : v]),
      );
      return executeAction(props.dashboardId, dc.id, fromFilters, extra);
    },
    meta: { errors: 'caller' },
    onSuccess: (r) => {
      notifySuccess(typeof r['rows-affected'] === 'number' ? `${label}: done (${r['rows-affected']} rows changed).` : `${label}: done.`);
      setOpen(false);
    },
  });
  const start = async () => {
    setTyped({});
    setPrefillError(null);
    run.reset();
    setOpen(true);
    if (Object.keys(forAction).length === 0) return;
    try {
      const current = await prefillAction(props.dashboardId, dc.id, forAction);
      // What the filters give is not typed again.
      const shown = Object.entries(current).filter(([k]) => !(k in forAction));
      setTyped(Object.fromEntries(shown.map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)])));
    } catch (e) {
      setPrefillError((e as Error).message);
    }
  };
  return (
    <Paper withBorder={Boolean(props.editActions)} radius="md" p="xs" h="100%" component="section" aria-label={`Action ${label}`}>
      <Group h="100%" justify="space-between" wrap="nowrap">
        <Center style={{ flex: 1 }}>
          <Button onClick={() => void start()} disabled={!action || Boolean(props.editActions)}>
            {label}
          </Button>
        </Center>
        {props.editActions && <Group gap={2}>{props.editActions}</Group>}
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={label}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            run.mutate();
          }}
        >
          <Stack>
            {prefillError && (
              <Alert color="yellow" role="alert">
                The current values could not be loaded: {prefillError}
              </Alert>
            )}
            {run.error && (
              <Alert color="red" role="alert">
                {run.error.message}
              </Alert>
            )}
            {asked.map((p) => (
              <TextInput
                key={p.id}
                label={labelOf(p)}
                placeholder={hidden[p.id]?.placeholder}
                inputMode={p.type.startsWith('number') ? 'decimal' : undefined}
                value={typed[p.id] ?? ''}
                onChange={(e) => setTyped({ ...typed, [p.id]: e.currentTarget.value })}
              />
            ))}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={run.isPending}>
                {label}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}

import { Alert, Button, Fieldset, Group, Modal, MultiSelect, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { getCard, useSearchItems, useTableFields } from '../../api/dashboard-edit';
import { useDashboard } from '../../api/dashboard-view';
import type { DashboardParameter, DashcardCard, DashcardData } from '../../api/dashboard-view';
import { COMBINABLE } from '../series';
import { clickBehaviorOf, mappingOf, type ClickBehavior } from '../click-behavior';
import { ChartSettingsFields } from '../../question/results/SettingsPanel';

type Kind = 'none' | 'crossfilter' | 'url' | 'question' | 'dashboard';

/** Keys of the modal's own fields: every other key the chart fields set is an override of the question's. */
const OWN_KEYS = new Set(['card.title', 'card.description', 'card.hide_title', 'click_behavior']);

/**
 * A question card's own settings on this dashboard (its `visualization_settings`, over the question's): title,
 * description, hidden title, the chart's settings, and what a click on one of its values does.
 */
export function CardSettingsModal(props: {
  dashcard: DashcardData;
  parameters: DashboardParameter[];
  onSave: (settings: Record<string, unknown>, series: DashcardCard[]) => void;
  onClose: () => void;
}) {
  const dc = props.dashcard;
  const vs = dc.visualization_settings;
  const current = clickBehaviorOf(vs);
  const [title, setTitle] = useState(String(vs['card.title'] ?? ''));
  const [description, setDescription] = useState(String(vs['card.description'] ?? ''));
  const [hideTitle, setHideTitle] = useState(vs['card.hide_title'] === true);
  const [kind, setKind] = useState<Kind>(
    !current ? 'none' : current.type === 'crossfilter' ? 'crossfilter' : current.linkType === 'url' ? 'url' : current.linkType,
  );
  const [template, setTemplate] = useState(current?.type === 'link' && current.linkType === 'url' ? current.linkTemplate : '');
  const [target, setTarget] = useState<string | null>(
    current?.type === 'link' && current.linkType !== 'url' ? String(current.targetId) : null,
  );
  // Parameter id → the column that sets it: this dashboard's filters (crossfilter) or the opened dashboard's.
  const [filters, setFilters] = useState<Record<string, string | null>>(() => {
    const mapping =
      current?.type === 'crossfilter' || (current?.type === 'link' && current.linkType === 'dashboard')
        ? current.parameterMapping
        : undefined;
    return Object.fromEntries(Object.values(mapping ?? {}).map((m) => [m.target.id, m.source.id]));
  });
  // The chart's settings as drawn here: the question's, with this card's overrides over them.
  const [chart, setChart] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(Object.entries(vs).filter(([k]) => !OWN_KEYS.has(k))),
  );
  const questionSettings = dc.card?.visualization_settings ?? {};
  const [series, setSeries] = useState<DashcardCard[]>(dc.series ?? []);
  const [seriesQ, setSeriesQ] = useState('');
  const [seriesDebounced] = useDebouncedValue(seriesQ, 250);
  const combinable = COMBINABLE.has(dc.card?.display ?? '');
  const candidates = useSearchItems(['card'], seriesDebounced, combinable);
  const [seriesError, setSeriesError] = useState<string | null>(null);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 250);
  const targets = useSearchItems(
    kind === 'dashboard' ? ['dashboard'] : ['card', 'dataset'],
    debounced,
    kind === 'question' || kind === 'dashboard',
  );
  // The result's columns; a question saved without them (made through the API) offers its table's fields, which are
  // the columns of an unaggregated question.
  const passesValues = kind === 'crossfilter' || kind === 'dashboard';
  const table = useTableFields(passesValues && !dc.card?.result_metadata?.length ? dc.card?.table_id : null);
  // The dashboard a click opens, once chosen: its filters are what the click can set.
  const targetDashboard = useDashboard(Number(target ?? 0), kind === 'dashboard' && target !== null);
  const filterTargets = kind === 'crossfilter' ? props.parameters : kind === 'dashboard' ? (targetDashboard.data?.parameters ?? []) : [];
  const columns = dc.card?.result_metadata?.length
    ? dc.card.result_metadata.map((c) => ({ value: c.name, label: c.display_name ?? c.name }))
    : (table.data?.fields ?? []).map((f) => ({ value: f.name, label: f.display_name }));

  const behavior = (): ClickBehavior | null => {
    if (kind === 'url') return template.trim() ? { type: 'link', linkType: 'url', linkTemplate: template.trim() } : null;
    if (kind === 'question' && target) return { type: 'link', linkType: kind, targetId: Number(target) };
    // Only the filters the chosen dashboard (or this one) has: a mapping left from another target is dropped. Until
    // the chosen dashboard has loaded, what was saved is kept as it is (Done pressed at once must not lose it).
    const loaded = kind !== 'dashboard' || targetDashboard.isSuccess;
    const known = Object.fromEntries(Object.entries(filters).filter(([id]) => !loaded || filterTargets.some((p) => p.id === id)));
    const parameterMapping = mappingOf(known);
    const mapped = Object.keys(parameterMapping).length > 0;
    if (kind === 'dashboard' && target)
      return { type: 'link', linkType: kind, targetId: Number(target), ...(mapped ? { parameterMapping } : {}) };
    if (kind === 'crossfilter') return mapped ? { type: 'crossfilter', parameterMapping } : null;
    return null;
  };
  const chooseSeries = async (ids: string[]) => {
    setSeriesError(null);
    try {
      const kept = series.filter((c) => ids.includes(String(c.id)));
      const added = await Promise.all(ids.filter((id) => !kept.some((c) => String(c.id) === id)).map((id) => getCard(Number(id))));
      setSeries([...kept, ...added]);
    } catch (e) {
      setSeriesError((e as Error).message);
    }
  };
  const seriesData = [
    ...series.map((c) => ({ value: String(c.id), label: c.name })),
    ...(candidates.data?.data ?? [])
      .filter((c) => c.id !== dc.card_id && !series.some((x) => x.id === c.id))
      .map((c) => ({ value: String(c.id), label: c.name })),
  ];
  const save = () => {
    const next: Record<string, unknown> = { ...vs };
    // A chart setting equal to the question's is no override: the question's later edits then show here too.
    for (const [k, v] of Object.entries(chart)) {
      if (v === undefined || JSON.stringify(v) === JSON.stringify(questionSettings[k])) delete next[k];
      else next[k] = v;
    }
    const set = (k: string, v: unknown) => (v === null || v === '' || v === false ? delete next[k] : (next[k] = v));
    set('card.title', title.trim() || null);
    set('card.description', description.trim() || null);
    set('card.hide_title', hideTitle);
    set('click_behavior', behavior());
    props.onSave(next, combinable ? series : []);
  };
  const found = (targets.data?.data ?? []).map((t) => ({ value: String(t.id), label: t.name }));
  const targetData = target && !found.some((f) => f.value === target) ? [...found, { value: target, label: `#${target}` }] : found;

  return (
    <Modal opened onClose={props.onClose} title={`Settings of ${dc.card?.name ?? 'the card'}`}>
      <Stack>
        <TextInput
          label="Title on this dashboard"
          placeholder={dc.card?.name}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea
          label="Description on this dashboard"
          autosize
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Switch label="Hide the title" checked={hideTitle} onChange={(e) => setHideTitle(e.currentTarget.checked)} />
        {dc.card && (
          <Fieldset legend="Chart on this dashboard" variant="unstyled">
            <Stack gap="sm">
              <ChartSettingsFields
                display={dc.card.display}
                settings={{ ...questionSettings, ...chart }}
                cols={dc.card.result_metadata ?? []}
                onSet={(k, v) => setChart((c) => ({ ...c, [k]: v }))}
              />
            </Stack>
          </Fieldset>
        )}
        {combinable && (
          <MultiSelect
            label="Combine with"
            description="Other questions drawn on this chart, one line or bar each, on this question's x-axis."
            searchable
            searchValue={seriesQ}
            onSearchChange={setSeriesQ}
            data={seriesData}
            value={series.map((c) => String(c.id))}
            onChange={(ids) => void chooseSeries(ids)}
          />
        )}
        {seriesError && (
          <Alert color="red" role="alert">
            {seriesError}
          </Alert>
        )}
        <Select
          label="On click"
          allowDeselect={false}
          value={kind}
          onChange={(v) => v && setKind(v as Kind)}
          data={[
            { value: 'none', label: 'Do nothing' },
            { value: 'crossfilter', label: 'Filter this dashboard' },
            { value: 'url', label: 'Go to a URL' },
            { value: 'question', label: 'Open a saved question' },
            { value: 'dashboard', label: 'Open a dashboard' },
          ]}
        />
        {kind === 'url' && (
          <TextInput
            label="URL"
            description="{{column}} is replaced by the clicked row's value of that column."
            placeholder="https://example.com/products/{{id}}"
            value={template}
            onChange={(e) => setTemplate(e.currentTarget.value)}
          />
        )}
        {(kind === 'question' || kind === 'dashboard') && (
          <Select
            label={kind === 'question' ? 'Question' : 'Dashboard'}
            searchable
            searchValue={q}
            onSearchChange={setQ}
            data={targetData}
            value={target}
            onChange={setTarget}
            nothingFoundMessage={targets.isFetching ? 'Searching…' : 'Nothing found'}
          />
        )}
        {passesValues &&
          filterTargets.map((p) => (
            <Select
              key={p.id}
              label={kind === 'dashboard' ? `Column that sets ${p.name} there` : `Column that sets ${p.name}`}
              clearable
              data={columns}
              value={filters[p.id] ?? null}
              onChange={(v) => setFilters({ ...filters, [p.id]: v })}
            />
          ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button onClick={save}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

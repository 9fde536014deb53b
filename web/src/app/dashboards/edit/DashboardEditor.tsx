import { Alert, Box, Button, Group, Menu, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Theme } from '../../../visualizations';
import { useUpdateDashboard } from '../../api/dashboard-edit';
import type { DashboardData, DashboardParameter, DashcardData } from '../../api/dashboard-view';
import { notifySuccess } from '../../notify';
import { DashboardGrid } from '../DashboardGrid';
import * as edit from '../draft';
import { FILTER_TYPES, slugify } from '../params';
import { ActionCard } from '../ActionCard';
import { QuestionCard } from '../QuestionCard';
import { VirtualCard, virtualKind } from '../VirtualCard';
import { AddActionModal } from './AddActionModal';
import { AddQuestionModal } from './AddQuestionModal';
import { CardEditActions } from './CardEditActions';
import { CardSettingsModal } from './CardSettingsModal';
import { EditTabs } from './EditTabs';
import { FilterEditor } from './FilterEditor';
import { MappingCard } from './MappingCard';
import { autoWireTargets, wiringForNewCard, withMapping } from './mapping';

/**
 * The dashboard's editor: a working copy changed freely (cards, layout, tabs, filters and their wiring), sent as one
 * `PUT /api/dashboard/:id` on Save, or dropped on Cancel.
 */
export function DashboardEditor(props: { dashboard: DashboardData; initialTab: number | null; theme: Theme; onDone: () => void }) {
  const { dashboard } = props;
  const [draft, setDraft] = useState(() => edit.draftOf(dashboard));
  const [tab, setTab] = useState<number | null>(props.initialTab);
  const [adding, setAdding] = useState(false);
  const [addingAction, setAddingAction] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [settingsOf, setSettingsOf] = useState<number | null>(null);
  /** The cards a filter was just wired to by itself (same column as the card the person wired), for Undo. */
  const [autoWired, setAutoWired] = useState<{ parameterId: string; dashcardIds: number[] } | null>(null);
  const update = useUpdateDashboard(dashboard.id);
  const current = tab !== null && draft.tabs.some((t) => t.id === tab) ? tab : (draft.tabs[0]?.id ?? null);
  const shown = draft.dashcards.filter((dc) => edit.onTab(dc, current, draft.tabs));
  const parameter = draft.parameters.find((p) => p.id === selected) ?? null;

  const addFilter = (t: (typeof FILTER_TYPES)[number]) => {
    const taken = new Set(draft.parameters.map((p) => p.slug));
    let name = t.label;
    for (let i = 2; taken.has(slugify(name)); i++) name = `${t.label} ${i}`;
    const id = crypto.randomUUID().slice(0, 8);
    const p: DashboardParameter = { id, name, slug: slugify(name), type: t.type, sectionId: t.sectionId };
    setDraft({ ...draft, parameters: [...draft.parameters, p] });
    setSelected(id);
  };
  const changeParameter = (p: DashboardParameter) =>
    setDraft({ ...draft, parameters: draft.parameters.map((x) => (x.id === p.id ? p : x)) });
  const save = () =>
    update.mutate(edit.saveBody(draft), {
      onSuccess: () => {
        notifySuccess('The dashboard is saved.');
        props.onDone();
      },
    });

  // Wiring a card wires the other cards of this tab that show the same column, as Metabase does (undoable).
  const wire = (dc: DashcardData, parameterId: string, target: unknown | null) => {
    let next = edit.updateCard(draft, dc.id, { parameter_mappings: withMapping(dc, parameterId, target) });
    const auto = target === null ? [] : autoWireTargets(shown, dc, parameterId, target);
    for (const a of auto) {
      const other = next.dashcards.find((d) => d.id === a.dashcardId)!;
      next = edit.updateCard(next, a.dashcardId, { parameter_mappings: withMapping(other, parameterId, a.target) });
    }
    setAutoWired(auto.length ? { parameterId, dashcardIds: auto.map((a) => a.dashcardId) } : null);
    setDraft(next);
  };
  const undoAutoWire = () => {
    if (!autoWired) return;
    let next = draft;
    for (const id of autoWired.dashcardIds) {
      const dc = next.dashcards.find((d) => d.id === id);
      if (dc) next = edit.updateCard(next, id, { parameter_mappings: withMapping(dc, autoWired.parameterId, null) });
    }
    setDraft(next);
    setAutoWired(null);
  };
  const select = (id: string | null) => {
    setSelected(id);
    setAutoWired(null);
  };

  const renderCard = (dc: DashcardData) => {
    if (parameter && dc.card) {
      return <MappingCard dashcard={dc} parameter={parameter} onTarget={(target) => wire(dc, parameter.id, target)} />;
    }
    const actions = (
      <CardEditActions
        name={dc.card?.name ?? (dc.action_id ? 'action button' : `${virtualKind(dc) ?? 'text'} card`)}
        tabs={draft.tabs}
        currentTab={current}
        onDuplicate={() => setDraft(edit.duplicateCard(draft, dc.id))}
        onRemove={() => setDraft(edit.removeCard(draft, dc.id))}
        onMoveToTab={(t) => setDraft(edit.moveCardToTab(draft, dc.id, t))}
        onSettings={dc.card ? () => setSettingsOf(dc.id) : undefined}
      />
    );
    if (dc.action_id) return <ActionCard dashboardId={dashboard.id} dashcard={dc} values={{}} editActions={actions} />;
    if (dc.card) {
      return (
        <QuestionCard
          dashboardId={dashboard.id}
          dashcard={dc}
          sent={[]}
          refresh={0}
          theme={props.theme}
          blocked={false}
          editActions={actions}
        />
      );
    }
    return (
      <VirtualCard
        dashcard={dc}
        parameters={draft.parameters}
        values={{}}
        editing
        editActions={actions}
        onChange={(settings) => setDraft(edit.updateCard(draft, dc.id, { visualization_settings: settings }))}
      />
    );
  };

  const virtual = (display: 'text' | 'heading' | 'link') =>
    setDraft(
      edit.addCard(draft, current, null, {
        virtual_card: { name: null, display, visualization_settings: {}, dataset_query: {}, archived: false },
        ...(display === 'link' ? { link: { url: '' } } : { text: '' }),
      }),
    );

  return (
    <Box p="md" component="section" aria-label="Editing the dashboard">
      <Group justify="space-between" align="flex-end" mb="sm">
        <TextInput
          label="Dashboard name"
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          w={360}
          error={draft.name.trim() ? null : 'Enter a name.'}
        />
        <Group gap="xs">
          <Button variant="default" onClick={() => setAdding(true)}>
            Add a question
          </Button>
          <Menu>
            <Menu.Target>
              <Button variant="default">Add a card</Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => virtual('heading')}>Heading</Menu.Item>
              <Menu.Item onClick={() => virtual('text')}>Text</Menu.Item>
              <Menu.Item onClick={() => virtual('link')}>Link</Menu.Item>
              <Menu.Item onClick={() => setAddingAction(true)}>Action button</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Menu>
            <Menu.Target>
              <Button variant="default">Add a filter</Button>
            </Menu.Target>
            <Menu.Dropdown>
              {FILTER_TYPES.map((t) => (
                <Menu.Item key={`${t.sectionId}-${t.type}`} onClick={() => addFilter(t)}>
                  {t.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Button
            variant="default"
            onClick={() => {
              const added = edit.addTab(draft, `Tab ${Math.max(draft.tabs.length, 1) + 1}`);
              setDraft(added.draft);
              setTab(added.tab);
            }}
          >
            Add a tab
          </Button>
          <Button variant="default" onClick={props.onDone}>
            Cancel
          </Button>
          <Button onClick={save} loading={update.isPending} disabled={!draft.name.trim()}>
            Save
          </Button>
        </Group>
      </Group>
      {update.error && (
        <Alert color="red" role="alert" title="The dashboard could not be saved" mb="sm">
          {update.error.message}
        </Alert>
      )}
      <EditTabs
        tabs={draft.tabs}
        tab={current}
        onTab={setTab}
        onRename={(id, name) => setDraft(edit.renameTab(draft, id, name))}
        onMove={(id, by) => setDraft(edit.moveTab(draft, id, by))}
        onRemove={(id) => setDraft(edit.removeTab(draft, id))}
      />
      <Group gap="xs" mb="sm" role="group" aria-label="Filters">
        {draft.parameters.map((p) => (
          <Button
            key={p.id}
            size="compact-sm"
            variant={p.id === selected ? 'filled' : 'light'}
            aria-pressed={p.id === selected}
            onClick={() => select(p.id === selected ? null : p.id)}
          >
            {p.name}
          </Button>
        ))}
        {draft.parameters.length > 0 && (
          <Switch
            ml="md"
            label="Auto-apply filters"
            checked={draft.auto_apply_filters}
            onChange={(e) => setDraft({ ...draft, auto_apply_filters: e.currentTarget.checked })}
          />
        )}
      </Group>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Box style={{ flex: 1, minWidth: 0 }}>
          {parameter && autoWired?.parameterId === parameter.id && (
            <Alert role="status" mb="sm" color="blue" title={`${parameter.name} is wired to more cards`}>
              <Group justify="space-between">
                <Text size="sm">
                  Also wired to {autoWired.dashcardIds.length} other {autoWired.dashcardIds.length === 1 ? 'card' : 'cards'} showing the
                  same column.
                </Text>
                <Button size="compact-sm" variant="default" onClick={undoAutoWire}>
                  Undo
                </Button>
              </Group>
            </Alert>
          )}
          {shown.length === 0 ? (
            <Text c="dimmed">Add a question or a card to this {draft.tabs.length ? 'tab' : 'dashboard'}.</Text>
          ) : (
            <DashboardGrid
              dashcards={shown}
              editing={!parameter}
              onLayout={(cells) =>
                setDraft((d) => ({ ...d, dashcards: d.dashcards.map((dc) => (cells.has(dc.id) ? { ...dc, ...cells.get(dc.id) } : dc)) }))
              }
              renderCard={renderCard}
            />
          )}
        </Box>
        {parameter && (
          <FilterEditor
            dashboardId={dashboard.id}
            parameter={parameter}
            parameters={draft.parameters}
            dashcards={draft.dashcards}
            saved={(dashboard.parameters ?? []).some((p) => p.id === parameter.id)}
            onChange={changeParameter}
            onRemove={() => {
              setDraft(edit.removeParameter(draft, parameter.id));
              select(null);
            }}
            onClose={() => select(null)}
          />
        )}
      </Group>
      {settingsOf !== null && draft.dashcards.some((d) => d.id === settingsOf) && (
        <CardSettingsModal
          dashcard={draft.dashcards.find((d) => d.id === settingsOf)!}
          parameters={draft.parameters}
          onClose={() => setSettingsOf(null)}
          onSave={(settings, series) => {
            setDraft(edit.updateCard(draft, settingsOf, { visualization_settings: settings, series }));
            setSettingsOf(null);
          }}
        />
      )}
      {addingAction && (
        <AddActionModal
          onClose={() => setAddingAction(false)}
          onPick={(action) => {
            const added = edit.addCard(draft, current, null, { actionDisplayType: 'button', 'button.label': action.name });
            const id = added.nextId + 1;
            setDraft(edit.updateCard(added, id, { action_id: action.id, action, size_x: 4, size_y: 2 }));
            setAddingAction(false);
          }}
        />
      )}
      {adding && (
        <AddQuestionModal
          onClose={() => setAdding(false)}
          onPick={(card) => {
            const added = edit.addCard(draft, current, card);
            const dc = added.dashcards[added.dashcards.length - 1];
            // The filters already wired to this column on other cards take the new card too.
            const wiring = wiringForNewCard(dc, draft.dashcards, draft.parameters);
            setDraft(wiring.length ? edit.updateCard(added, dc.id, { parameter_mappings: wiring }) : added);
            setAdding(false);
          }}
        />
      )}
    </Box>
  );
}

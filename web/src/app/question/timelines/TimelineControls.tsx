import { Button, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import type { ChartMarker } from '../../../visualizations';
import type { DatasetResult } from '../../api/dataset';
import { useCreateEvent, useQuestionTimelines, type Timeline } from '../../api/timeline';
import { notifyError } from '../../notify';
import { eventMarkers, timeDimension } from './event-markers';

const TIME_SERIES = new Set(['line', 'area', 'bar', 'combo']);

/**
 * Timeline events on a time-series chart: the markers to draw, and the controls under the chart (a switch that shows
 * or hides them, "Create an event"). `cardId`: the saved question whose collection's timelines show (null: all).
 */
export function useTimelines(opts: { cardId: number | null; collectionId: number | null; result: DatasetResult | null; display: string }): {
  markers?: ChartMarker[];
  controls?: ReactNode;
} {
  const { result, display } = opts;
  const timeSeries = Boolean(result && TIME_SERIES.has(display) && timeDimension(result.data.cols) >= 0);
  const timelines = useQuestionTimelines(opts.cardId, timeSeries);
  const [shown, setShown] = useState(true);
  const [creating, setCreating] = useState(false);
  const markers = useMemo(() => {
    if (!timeSeries || !shown || !result || !timelines.data) return undefined;
    const events = timelines.data.filter((t) => !t.archived).flatMap((t) => t.events ?? []);
    return eventMarkers(events, result.data.cols, result.data.rows);
  }, [timeSeries, shown, result, timelines.data]);
  if (!timeSeries) return {};
  const controls = (
    <Group gap="md" mt="xs">
      <Switch label="Show timelines" checked={shown} onChange={(e) => setShown(e.currentTarget.checked)} />
      <Button size="xs" variant="default" onClick={() => setCreating(true)}>
        Create an event
      </Button>
      {creating && <EventForm timelines={timelines.data ?? []} collectionId={opts.collectionId} onClose={() => setCreating(false)} />}
    </Group>
  );
  return { markers, controls };
}

/** The new event: name, day, timeline (the collection's default "Events" timeline is made when there is none). */
function EventForm(props: { timelines: Timeline[]; collectionId: number | null; onClose(): void }) {
  const writable = props.timelines.filter((t) => !t.archived && t.collection?.can_write !== false);
  const [name, setName] = useState('');
  const [date, setDate] = useState('');
  const [timeline, setTimeline] = useState<string | null>(
    writable.find((t) => t.default)?.id.toString() ?? writable[0]?.id.toString() ?? null,
  );
  const [tried, setTried] = useState(false);
  const create = useCreateEvent();
  const nameError = tried && !name.trim() ? 'Enter a name for the event.' : null;
  const dateError = tried && !/^\d{4}-\d{2}-\d{2}$/.test(date) ? 'Enter the date (yyyy-mm-dd).' : null;
  const submit = () => {
    setTried(true);
    if (!name.trim() || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
    create.mutate(
      { name: name.trim(), date, timeline_id: timeline ? Number(timeline) : null, collection_id: props.collectionId },
      { onSuccess: props.onClose, onError: (e) => notifyError(e) },
    );
  };
  return (
    <Modal opened onClose={props.onClose} title="New event" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput label="Event name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} data-autofocus />
          <TextInput
            label="Date"
            placeholder="yyyy-mm-dd"
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            error={dateError}
          />
          {writable.length > 0 ? (
            <Select
              label="Timeline"
              data={writable.map((t) => ({ value: String(t.id), label: t.name }))}
              value={timeline}
              onChange={setTimeline}
              allowDeselect={false}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

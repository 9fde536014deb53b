import { Alert, Button, Loader, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import type { Card } from '../api/card';
import { useSearchItems, type UpdateDashboardBody } from '../api/dashboard-edit';
import { dashboardViewKeys, getDashboard, type DashboardData } from '../api/dashboard-view';
import { addCard, draftOf, saveBody } from '../dashboards/draft';

/**
 * "Add to a dashboard": the dashboards the person may change, searched by name; the question goes below the first
 * tab's cards (one PUT of the dashboard's cards, as the editor saves them) and the dashboard opens.
 */
export function AddToDashboardModal(props: { card: Card; onClose: () => void; beforeLeave: () => void }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 250);
  const found = useSearchItems(['dashboard'], debounced.trim());
  const [adding, setAdding] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const client = useQueryClient();
  const writable = (found.data?.data ?? []).filter((d) => d.can_write !== false);

  const add = async (id: number) => {
    setAdding(id);
    setError(null);
    try {
      const draft = draftOf(await getDashboard(id));
      const { id: cardId, name, display } = props.card;
      // The PUT needs only the card's id; the rest is what a draft's dashcard carries.
      const card = { id: cardId, name, display, visualization_settings: props.card.visualization_settings ?? {} };
      const body: UpdateDashboardBody = saveBody(addCard(draft, draft.tabs[0]?.id ?? null, card));
      const saved = await api<DashboardData>('PUT', `/api/dashboard/${id}`, { body: { dashcards: body.dashcards, tabs: body.tabs } });
      client.setQueryData(dashboardViewKeys.one(id), saved);
      props.beforeLeave();
      props.onClose();
      navigate(`/dashboard/${id}`);
    } catch (e) {
      setError((e as Error).message);
      setAdding(null);
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={`Add ${props.card.name} to a dashboard`} size="lg">
      <Stack>
        <TextInput label="Search dashboards" value={q} onChange={(e) => setQ(e.currentTarget.value)} data-autofocus />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {found.isPending && <Loader size="sm" aria-label="Searching" />}
        {found.error && (
          <Alert color="red" role="alert">
            {found.error.message}
          </Alert>
        )}
        <ScrollArea.Autosize mah={400}>
          <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Dashboards">
            {writable.map((d) => (
              <li key={d.id}>
                <Button
                  variant="subtle"
                  fullWidth
                  justify="flex-start"
                  loading={adding === d.id}
                  disabled={adding !== null && adding !== d.id}
                  onClick={() => void add(d.id)}
                  rightSection={
                    d.collection?.name ? (
                      <Text size="xs" c="dimmed">
                        {d.collection.name}
                      </Text>
                    ) : undefined
                  }
                >
                  {d.name}
                </Button>
              </li>
            ))}
          </Stack>
          {found.data && writable.length === 0 && <Text c="dimmed">No dashboards you can change match.</Text>}
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}

import { ActionIcon, Button, Group, Menu, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { DashboardData } from '../api/dashboard-view';
import { DashboardActions, type ActionKind } from './DashboardActions';
import { ExpandIcon, ShrinkIcon } from './icons';

const REFRESH_CHOICES = [
  { seconds: 60, label: '1 minute' },
  { seconds: 300, label: '5 minutes' },
  { seconds: 600, label: '10 minutes' },
  { seconds: 1800, label: '30 minutes' },
  { seconds: 3600, label: '60 minutes' },
];

/** The dashboard's title and its actions: edit, full screen, auto-refresh, and the "More" menu. */
export function DashboardHeader(props: {
  dashboard: DashboardData;
  onEdit: () => void;
  fullscreen: boolean;
  onFullscreen: () => void;
  refreshEvery: number | null;
  onRefreshEvery: (s: number | null) => void;
}) {
  const d = props.dashboard;
  const [action, setAction] = useState<ActionKind | null>(null);
  const canWrite = d.can_write !== false && !d.archived;
  return (
    <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
      <div>
        <Title order={1} size="h2">
          {d.name}
        </Title>
        {d.description && (
          <Text c="dimmed" size="sm">
            {d.description}
          </Text>
        )}
        {d.archived && (
          <Text c="red" size="sm">
            This dashboard is in the trash.
          </Text>
        )}
      </div>
      <Group gap="xs" wrap="nowrap">
        {canWrite && !props.fullscreen && <Button onClick={props.onEdit}>Edit dashboard</Button>}
        <Menu position="bottom-end">
          <Menu.Target>
            {/* Its text is its name: "Auto-refresh", with the period once one is chosen. */}
            <Button variant="default">
              {props.refreshEvery
                ? `Auto-refresh: ${REFRESH_CHOICES.find((c) => c.seconds === props.refreshEvery)?.label}`
                : 'Auto-refresh'}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => props.onRefreshEvery(null)}>Off</Menu.Item>
            {REFRESH_CHOICES.map((c) => (
              <Menu.Item key={c.seconds} onClick={() => props.onRefreshEvery(c.seconds)}>
                Every {c.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <Tooltip label={props.fullscreen ? 'Exit full screen' : 'Full screen'}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={props.fullscreen ? 'Exit full screen' : 'Full screen'}
            onClick={props.onFullscreen}
          >
            {props.fullscreen ? <ShrinkIcon /> : <ExpandIcon />}
          </ActionIcon>
        </Tooltip>
        {!props.fullscreen && (
          <Menu position="bottom-end">
            <Menu.Target>
              <Button variant="default" aria-label="More dashboard actions">
                More
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setAction('history')}>Revision history</Menu.Item>
              <Menu.Item onClick={() => setAction('sharing')}>Sharing and embedding</Menu.Item>
              <Menu.Item onClick={() => setAction('copy')}>Duplicate</Menu.Item>
              {canWrite && <Menu.Item onClick={() => setAction('move')}>Move</Menu.Item>}
              {canWrite && (
                <Menu.Item color="red" onClick={() => setAction('archive')}>
                  Move to trash
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <DashboardActions dashboard={d} action={action} onClose={() => setAction(null)} />
    </Group>
  );
}

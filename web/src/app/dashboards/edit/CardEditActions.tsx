import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import type { DashboardTab } from '../../api/dashboard-view';
import { CopyIcon, DragIcon, MoveIcon, RemoveIcon, SettingsIcon } from '../icons';

/** A card's tools while editing: its drag handle, duplicate, move to another tab, remove. */
export function CardEditActions(props: {
  name: string;
  tabs: DashboardTab[];
  currentTab: number | null;
  onDuplicate: () => void;
  onRemove: () => void;
  onMoveToTab: (tab: number) => void;
  /** Question cards only: their settings on this dashboard. */
  onSettings?: () => void;
}) {
  const otherTabs = props.tabs.filter((t) => t.id !== props.currentTab);
  return (
    <>
      <Tooltip label="Drag to move">
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          className="dashcard-drag-handle"
          aria-label={`Move ${props.name} (drag)`}
          style={{ cursor: 'move' }}
        >
          <DragIcon />
        </ActionIcon>
      </Tooltip>
      {props.onSettings && (
        <Tooltip label="Settings">
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Settings of ${props.name}`} onClick={props.onSettings}>
            <SettingsIcon />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label="Duplicate">
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Duplicate ${props.name}`} onClick={props.onDuplicate}>
          <CopyIcon />
        </ActionIcon>
      </Tooltip>
      {otherTabs.length > 0 && (
        <Menu>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Move ${props.name} to another tab`}>
              <MoveIcon />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {otherTabs.map((t) => (
              <Menu.Item key={t.id} onClick={() => props.onMoveToTab(t.id)}>
                Move to {t.name}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      <Tooltip label="Remove">
        <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Remove ${props.name}`} onClick={props.onRemove}>
          <RemoveIcon />
        </ActionIcon>
      </Tooltip>
    </>
  );
}

import { ActionIcon, Button, Group, Menu, Modal, Stack, Tabs, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { DashboardTab } from '../../api/dashboard-view';
import { ChevronIcon } from '../icons';

/** The tabs while editing: choose one; rename, move left or right, or remove the chosen one from its menu. */
export function EditTabs(props: {
  tabs: DashboardTab[];
  tab: number | null;
  onTab: (id: number) => void;
  onRename: (id: number, name: string) => void;
  onMove: (id: number, by: -1 | 1) => void;
  onRemove: (id: number) => void;
}) {
  const [renaming, setRenaming] = useState<number | null>(null);
  if (props.tabs.length === 0) return null;
  const renamed = props.tabs.find((t) => t.id === renaming);
  const index = props.tabs.findIndex((t) => t.id === props.tab);
  const current = props.tabs[index];
  return (
    <Group gap="xs" mb="sm" wrap="nowrap" align="flex-end">
      <Tabs value={String(props.tab)} onChange={(v) => v && props.onTab(Number(v))}>
        <Tabs.List aria-label="Dashboard tabs">
          {props.tabs.map((t) => (
            <Tabs.Tab key={t.id} value={String(t.id)}>
              {t.name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* Each tab controls a panel (the grid below draws the chosen tab's cards). */}
        {props.tabs.map((t) => (
          <Tabs.Panel key={t.id} value={String(t.id)}>
            {null}
          </Tabs.Panel>
        ))}
      </Tabs>
      {current && (
        <Menu position="bottom-start">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions of the tab ${current.name}`}>
              <ChevronIcon />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setRenaming(current.id)}>Rename</Menu.Item>
            <Menu.Item disabled={index === 0} onClick={() => props.onMove(current.id, -1)}>
              Move left
            </Menu.Item>
            <Menu.Item disabled={index === props.tabs.length - 1} onClick={() => props.onMove(current.id, 1)}>
              Move right
            </Menu.Item>
            <Menu.Item color="red" disabled={props.tabs.length === 1} onClick={() => props.onRemove(current.id)}>
              Remove (with its cards)
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      {renamed && (
        <RenameTab
          name={renamed.name}
          onClose={() => setRenaming(null)}
          onRename={(name) => {
            props.onRename(renamed.id, name);
            setRenaming(null);
          }}
        />
      )}
    </Group>
  );
}

/** The tab's new name, in a small dialog (a field inside the tab strip would lose its focus to the closing menu). */
function RenameTab(props: { name: string; onRename: (name: string) => void; onClose: () => void }) {
  const [name, setName] = useState(props.name);
  return (
    <Modal opened onClose={props.onClose} title="Rename the tab">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) props.onRename(name.trim());
        }}
      >
        <Stack>
          <TextInput
            label="Tab name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
            error={name.trim() ? null : 'Enter a name.'}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim()}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

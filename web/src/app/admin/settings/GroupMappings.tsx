import { ActionIcon, Button, Group, MultiSelect, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useGroups } from '../../api/permissions';

export type GroupMappingsValue = Record<string, number[]>;

/**
 * `jwt-group-mappings` / `saml-group-mappings`: a group name as the identity provider sends it, to the groups a
 * person with it joins at each sign-in (and leaves when it is gone, with group sync on). `source` names the provider.
 */
export function GroupMappings({
  source,
  value,
  onChange,
  error,
  disabled,
}: {
  source: string;
  value: GroupMappingsValue;
  onChange(value: GroupMappingsValue): void;
  error?: ReactNode;
  disabled?: boolean;
}) {
  const groups = useGroups();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const options = (groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  const names = Object.keys(value ?? {});

  const add = () => {
    const n = name.trim();
    if (!n) return setNameError(`Enter a group name as ${source} sends it.`);
    if (n in (value ?? {})) return setNameError(`${n} is mapped already.`);
    onChange({ ...(value ?? {}), [n]: [] });
    setName('');
    setNameError(null);
  };
  const remove = (n: string) => {
    const next = { ...value };
    delete next[n];
    onChange(next);
  };

  return (
    <Stack gap="xs">
      <Text fw={500} size="sm" id={`${source}-mappings`}>
        Group mappings
      </Text>
      <Text size="sm" c="dimmed">
        People whose {source} groups include a name below join its groups at sign-in.
      </Text>
      {names.length > 0 && (
        <Table aria-labelledby={`${source}-mappings`} withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{source} group</Table.Th>
              <Table.Th>Groups here</Table.Th>
              <Table.Th>
                <VisuallyHidden>Remove</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {names.map((n) => (
              <Table.Tr key={n}>
                <Table.Td>{n}</Table.Td>
                <Table.Td>
                  <MultiSelect
                    aria-label={`Groups for ${n}`}
                    data={options}
                    value={(value[n] ?? []).map(String)}
                    onChange={(ids) => onChange({ ...value, [n]: ids.map(Number) })}
                    placeholder={value[n]?.length ? undefined : 'Pick groups'}
                    disabled={disabled}
                    searchable
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove mapping ${n}`} onClick={() => remove(n)} disabled={disabled}>
                    ✕
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group align="flex-start" gap="xs">
        <TextInput
          label={`New mapping: ${source} group name`}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter adds the mapping rather than submitting the whole form.
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          error={nameError}
          disabled={disabled}
        />
        <Button variant="default" mt={25} onClick={add} disabled={disabled}>
          Add mapping
        </Button>
      </Group>
      {error && (
        <Text c="var(--mantine-color-error)" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

import { Group, Kbd, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { itemPath } from '../api/item';
import { useSearch } from '../api/search';
import { typeLabel } from './types';

const SHOWN = 8;

interface Option {
  key: string;
  label: string;
  hint: string;
  to: string;
}

/**
 * The command palette (Ctrl/Cmd+K): a search box that is a combobox over a listbox of results, as the ARIA pattern has
 * it (the focus stays in the box; arrows move the active option, Enter opens it, Escape closes). The last option is
 * the full results page. Each keystroke's search supersedes the last: the previous request is aborted.
 */
export default function CommandPalette({ onClose }: { onClose(): void }) {
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const [debounced] = useDebouncedValue(q.trim(), 120);
  const navigate = useNavigate();
  const id = useId();
  const search = useSearch({ q: debounced, limit: SHOWN }, { enabled: debounced !== '' });
  const results = debounced && search.data ? search.data.data : [];
  const options: Option[] = results.map((r) => ({
    key: `${r.model}-${r.id}`,
    label: r.name,
    hint: typeLabel(r.model),
    to: itemPath(r),
  }));
  if (q.trim())
    options.push({ key: 'all', label: `See all results for “${q.trim()}”`, hint: '', to: `/search?q=${encodeURIComponent(q.trim())}` });
  const current = Math.min(active, options.length - 1);
  const open = (o: Option) => {
    onClose();
    navigate(o.to);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!options.length) return;
    if (e.key === 'ArrowDown') setActive((current + 1) % options.length);
    else if (e.key === 'ArrowUp') setActive((current - 1 + options.length) % options.length);
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(options.length - 1);
    else if (e.key === 'Enter') open(options[current]);
    else return;
    e.preventDefault();
  };
  const optionId = (i: number) => `${id}-option-${i}`;
  return (
    <Modal opened onClose={onClose} title="Search" size="lg" yOffset="10vh">
      <Stack gap="sm">
        <TextInput
          data-autofocus
          role="combobox"
          aria-label="Search"
          aria-expanded={options.length > 0}
          aria-controls={`${id}-listbox`}
          aria-autocomplete="list"
          aria-activedescendant={options.length ? optionId(current) : undefined}
          placeholder="Search questions, dashboards, collections, tables…"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          rightSection={search.isFetching ? <Loader size="xs" aria-label="Searching" /> : null}
        />
        <Stack component="ul" role="listbox" id={`${id}-listbox`} aria-label="Results" gap={2} m={0} p={0} style={{ listStyle: 'none' }}>
          {options.map((o, i) => (
            <UnstyledButton
              component="li"
              key={o.key}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              onMouseEnter={() => setActive(i)}
              onClick={() => open(o)}
              px="sm"
              py={6}
              style={{
                borderRadius: 'var(--mantine-radius-sm)',
                background: i === current ? 'var(--mantine-color-default-hover)' : undefined,
              }}
            >
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={i === current ? 700 : 400} truncate>
                  {o.label}
                </Text>
                {o.hint && (
                  <Text size="xs" c="dimmed">
                    {o.hint}
                  </Text>
                )}
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
        {debounced && search.data && results.length === 0 && !search.isFetching && (
          <Text size="sm" c="dimmed" role="status">
            Nothing matches “{debounced}”.
          </Text>
        )}
        <Text size="xs" c="dimmed">
          <Kbd>↑</Kbd> <Kbd>↓</Kbd> to move, <Kbd>Enter</Kbd> to open, <Kbd>Esc</Kbd> to close
        </Text>
      </Stack>
    </Modal>
  );
}

import { List, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../components/PageTitle';

/**
 * An admin area whose screens are not built yet: its title, what it is for, and what is left to build (issue 34).
 * Each area replaces this with its screens.
 */
export function AreaPlaceholder({ title, summary, todo }: { title: string; summary: string; todo: string[] }) {
  usePageTitle(title);
  return (
    <Stack gap="sm" maw={720}>
      <Title order={1}>{title}</Title>
      <Text>{summary}</Text>
      <Text fw={700}>Not built yet. This area will hold:</Text>
      <List>
        {todo.map((t) => (
          <List.Item key={t}>{t}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

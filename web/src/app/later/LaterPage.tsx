import { Stack, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router';
import { usePageTitle } from '../components/PageTitle';

/**
 * The analyst's pages (collections, questions, dashboards, search, browsing, the trash) answer at Metabase's URLs
 * already, so links into the app land; their areas are built next (issue 34 is followed by the collections and
 * questions issue, then dashboards). Each area replaces its entry in router.tsx with its own lazily loaded module.
 */
export function LaterPage({ title }: { title: string }) {
  usePageTitle(title);
  const { pathname, search } = useLocation();
  return (
    <Stack gap="sm" maw={720}>
      <Title order={1}>{title}</Title>
      <Text>This page is part of the next stage of the application and is not built yet.</Text>
      <Text size="sm" c="dimmed">
        You asked for <code>{pathname + search}</code>.
      </Text>
    </Stack>
  );
}

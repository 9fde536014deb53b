import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from './PageTitle';

/** A path inside the app that no page answers. */
export function NotFound() {
  usePageTitle('Not found');
  return (
    <Stack gap="sm" maw={560}>
      <Title order={1}>Not found</Title>
      <Text>The page you asked for could not be found.</Text>
      <Anchor component={Link} to="/">
        Go to the home page
      </Anchor>
    </Stack>
  );
}

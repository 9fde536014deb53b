import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** What a signed-in person sees at a page they may not open (a non-admin at /admin). */
export function NoPermission() {
  return (
    <Center p="xl" component="section" aria-labelledby="no-permission-title">
      <Stack maw={560} gap="sm" align="center">
        <Title order={1} id="no-permission-title">
          You don&apos;t have permission to see this page
        </Title>
        <Text>Ask an administrator of this site if you need access.</Text>
        <Anchor component={Link} to="/">
          Go to the home page
        </Anchor>
      </Stack>
    </Center>
  );
}

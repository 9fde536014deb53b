import { Box, Center, Group, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSessionProperties } from '../api/session';
import { ThemeToggleButton } from '../components/color-scheme';

/** The frame of the pages before the shell (sign-in, setup): the site's name, a card, the theme switch. */
export function AuthLayout({ title, children, width = 420 }: { title: string; children: ReactNode; width?: number }) {
  const site = useSessionProperties().data?.['site-name'];
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group justify="space-between" p="md" component="header">
        <Box fw={900} fz="lg">
          {site ?? '\u00a0'}
        </Box>
        <ThemeToggleButton />
      </Group>
      <Center component="main" px="md" pb="xl">
        <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={width}>
          <Stack gap="lg">
            <Title order={1} fz="h2">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}

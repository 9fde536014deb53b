import { Box, Center, Flex, Loader, NavLink, Stack, Text } from '@mantine/core';
import { Link, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../api/user';
import { NoPermission } from '../components/NoPermission';
import { ADMIN_AREAS, areaOf } from './areas';

/** `/admin/...`: the admin console's side navigation and the area. Only admins; others get the permission page. */
export function AdminLayout() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  if (!user.data)
    return (
      <Center p="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (!user.data.is_superuser) return <NoPermission />;
  const current = areaOf(pathname);
  return (
    <Flex gap="xl" align="flex-start" direction={{ base: 'column', sm: 'row' }}>
      <Box component="nav" aria-label="Admin" w={{ base: '100%', sm: 220 }} style={{ flexShrink: 0 }}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4} component="h2">
          Admin
        </Text>
        <Stack gap={2}>
          {ADMIN_AREAS.map((a) => (
            <NavLink
              key={a.path}
              component={Link}
              to={`/admin/${a.path}`}
              label={a.label}
              active={current === a}
              aria-current={current === a ? 'page' : undefined}
            />
          ))}
        </Stack>
      </Box>
      <Box component="section" style={{ flex: 1, minWidth: 0 }}>
        <Outlet />
      </Box>
    </Flex>
  );
}

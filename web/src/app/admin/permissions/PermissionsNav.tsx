import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** Data and Collections, the two grids: links, the current one marked. */
export function PermissionsNav() {
  const { pathname } = useLocation();
  const collections = pathname.startsWith('/admin/permissions/collections');
  const link = (to: string, label: string, current: boolean) => (
    <Button component={Link} to={to} variant={current ? 'light' : 'subtle'} aria-current={current ? 'page' : undefined} size="compact-md">
      {label}
    </Button>
  );
  return (
    <Group component="nav" aria-label="Permission kinds" gap="xs">
      {link('/admin/permissions/data', 'Data', !collections)}
      {link('/admin/permissions/collections', 'Collections', collections)}
    </Group>
  );
}

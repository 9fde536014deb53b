import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** People, Groups and Tenants, the pages of the area: links (each page has its own URL), the current one marked. */
export function PeopleNav() {
  const { pathname } = useLocation();
  const groups = pathname.startsWith('/admin/people/groups');
  const tenants = pathname.startsWith('/admin/people/tenants');
  const link = (to: string, label: string, current: boolean) => (
    <Button component={Link} to={to} variant={current ? 'light' : 'subtle'} aria-current={current ? 'page' : undefined} size="compact-md">
      {label}
    </Button>
  );
  return (
    <Group component="nav" aria-label="People and groups" gap="xs">
      {link('/admin/people', 'People', !groups && !tenants)}
      {link('/admin/people/groups', 'Groups', groups)}
      {link('/admin/people/tenants', 'Tenants', tenants)}
    </Group>
  );
}

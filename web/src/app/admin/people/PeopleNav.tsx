import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** People and Groups, the two pages of the area: links (each page has its own URL), the current one marked. */
export function PeopleNav() {
  const { pathname } = useLocation();
  const groups = pathname.startsWith('/admin/people/groups');
  const link = (to: string, label: string, current: boolean) => (
    <Button component={Link} to={to} variant={current ? 'light' : 'subtle'} aria-current={current ? 'page' : undefined} size="compact-md">
      {label}
    </Button>
  );
  return (
    <Group component="nav" aria-label="People and groups" gap="xs">
      {link('/admin/people', 'People', !groups)}
      {link('/admin/people/groups', 'Groups', groups)}
    </Group>
  );
}

import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

export interface SubNavItem {
  to: string;
  label: string;
  /** Active only at exactly this path (an overview page above its sub-pages). */
  end?: boolean;
}

/** An area's own navigation between its pages (Settings: General, Authentication, ...), as links with the current one marked. */
export function SubNav({ label, items }: { label: string; items: SubNavItem[] }) {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '');
  return (
    <Group component="nav" aria-label={label} gap={4} mb="lg" wrap="wrap">
      {items.map((item) => {
        const active = path === item.to || (!item.end && path.startsWith(`${item.to}/`));
        return (
          <Button
            key={item.to}
            component={Link}
            to={item.to}
            size="compact-md"
            variant={active ? 'light' : 'subtle'}
            aria-current={active ? 'page' : undefined}
          >
            {item.label}
          </Button>
        );
      })}
    </Group>
  );
}

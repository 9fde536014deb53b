import { ActionIcon, Menu } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useLogout } from '../api/session';
import type { CurrentUser } from '../api/user';
import { useThemeToggle } from '../components/color-scheme';

/**
 * The signed-in person's menu: account settings, the admin console (admins only), the theme, sign out. Their name is
 * the button's accessible name (a text label inside the menu would be a child role=menu may not have).
 */
export function UserMenu({ user }: { user: CurrentUser }) {
  const logout = useLogout();
  const navigate = useNavigate();
  const theme = useThemeToggle();
  const name = user.common_name || user.email;
  const signOut = () => logout.mutate(undefined, { onSuccess: () => navigate('/auth/login', { replace: true }) });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" radius="xl" size="lg" aria-label={`Account menu for ${name}`} title={name}>
          {/* A picture, not the initials: visible text in a button must be part of its name (WCAG 2.5.3). */}
          <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <circle cx="12" cy="8" r="4" />
            <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
          </svg>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/account/profile">
          Account settings
        </Menu.Item>
        {user.is_superuser && (
          <Menu.Item component={Link} to="/admin">
            Admin settings
          </Menu.Item>
        )}
        <Menu.Item onClick={theme.toggle}>{theme.label}</Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={signOut}>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

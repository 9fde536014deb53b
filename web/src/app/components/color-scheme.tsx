import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

/** The theme in force (the chosen one, or the system's when none was chosen) and a switch to the other. */
export function useThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const current = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = current === 'dark' ? 'light' : 'dark';
  return { current, label: next === 'dark' ? 'Use the dark theme' : 'Use the light theme', toggle: () => setColorScheme(next) };
}

/** A button that switches between the light and dark themes (remembered in this browser). */
export function ThemeToggleButton() {
  const { current, label, toggle } = useThemeToggle();
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" onClick={toggle} aria-label={label} title={label}>
      <span aria-hidden="true">{current === 'dark' ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}

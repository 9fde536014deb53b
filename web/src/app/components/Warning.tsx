import { Alert, type AlertProps } from '@mantine/core';

/**
 * A caution beside a setting. Mantine's yellow on its light yellow is 2.75:1 (under WCAG AA's 4.5:1, which the axe
 * scan enforces), and yellow has no darker shade: the title takes the text color instead, the tint says "warning".
 */
export function Warning(props: Omit<AlertProps, 'color' | 'variant'>) {
  return <Alert {...props} color="yellow" variant="light" styles={{ title: { color: 'var(--mantine-color-text)' } }} />;
}

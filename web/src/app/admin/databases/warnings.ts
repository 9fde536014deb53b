import { notifications } from '@mantine/notifications';

/** What the server warns about a saved connection (a role that may write, for one): shown, never blocking. */
export function notifyWarnings(warnings: string[] | undefined): void {
  for (const message of warnings ?? []) notifications.show({ color: 'yellow', title: 'Check this connection', message, autoClose: false });
}

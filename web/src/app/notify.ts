import { notifications } from '@mantine/notifications';

/** An error nobody shows where it happened (a mutation outside a form, a failed action): the toaster. */
export function notifyError(error: Error | string): void {
  notifications.show({ color: 'red', title: 'Something went wrong', message: typeof error === 'string' ? error : error.message });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

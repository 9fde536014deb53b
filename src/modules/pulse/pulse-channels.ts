const SCHEDULES = ['hourly', 'daily', 'weekly', 'monthly'];

/**
 * The notification channels Metabase offers for subscriptions and alerts, with what each needs. This server sends
 * no email, Slack or webhook messages, so every channel is unconfigured: clients (the embedding SDK's static
 * dashboards among them) then hide their subscription controls.
 */
export function pulseChannels() {
  return {
    email: {
      type: 'email',
      name: 'Email',
      allows_recipients: true,
      recipients: ['user', 'email'],
      schedules: SCHEDULES,
      configured: false,
    },
    slack: {
      type: 'slack',
      name: 'Slack',
      allows_recipients: false,
      schedules: SCHEDULES,
      fields: [{ name: 'channel', type: 'select', displayName: 'Post to', options: [], required: true }],
      configured: false,
    },
    http: { type: 'http', name: 'Webhook', allows_recipients: false, schedules: SCHEDULES, configured: false },
  };
}

import { Alert, Button, Group, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useDatabases } from '../api/database';
import { useSessionProperties } from '../api/session';
import { useSetup } from '../api/setup';
import { AuthLayout } from '../auth/AuthLayout';
import { usePageTitle } from '../components/PageTitle';
import { showApiErrors } from '../forms/api-errors';
import { DatabaseForm } from './DatabaseForm';
import { NewPasswordField } from './PasswordField';

type Step = 'account' | 'site' | 'database' | 'done';
const STEPS: Record<Step, string> = {
  account: 'Step 1 of 3: Your account',
  site: 'Step 2 of 3: Your organization',
  database: 'Step 3 of 3: Add your data',
  done: 'You are all set',
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * `/setup`, while the server offers a setup token: the first admin's account (its password checked live), the site's
 * name (both sent as one `POST /api/setup`, which signs the admin in), then a database to connect or the Sample
 * Database to keep, then home. Without a setup token (setup done) it leads home.
 */
export function SetupPage() {
  usePageTitle('Setup');
  const props = useSessionProperties();
  const setup = useSetup();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('account');
  const [formError, setFormError] = useState<string | null>(null);
  const account = useForm({
    initialValues: { first_name: '', last_name: '', email: '', password: '', password_confirm: '' },
    validate: validateAccount,
  });
  const site = useForm({
    initialValues: { site_name: '' },
    validate: { site_name: (v) => (v.trim() ? null : 'Enter a name.') },
  });

  // Once this page has created the admin the token is gone: the remaining steps stay.
  if (props.isSuccess && !props.data['setup-token'] && !setup.isSuccess) return <Navigate to="/" replace />;

  const toSite = account.onSubmit(() => {
    setFormError(null);
    setStep('site');
  });

  /** One POST /api/setup; what it refuses in the account goes back to that step, beside its field. */
  const create = site.onSubmit(async ({ site_name }) => {
    setFormError(null);
    const token = props.data?.['setup-token'];
    if (!token) return setFormError('The setup token could not be read from the server. Reload the page and try again.');
    const v = account.getValues();
    const user = {
      email: v.email.trim(),
      password: v.password,
      first_name: v.first_name.trim() || null,
      last_name: v.last_name.trim() || null,
    };
    try {
      await setup.mutateAsync({ token, user, prefs: { site_name: site_name.trim() } });
      setStep('database');
    } catch (e) {
      if (showApiErrors(account, e, { onOther: setFormError })) setStep('account');
    }
  });

  return (
    <AuthLayout title="Welcome" width={520}>
      <Title order={2} fz="h4" aria-live="polite">
        {STEPS[step]}
      </Title>
      {formError && (
        <Alert color="red" variant="light" role="alert">
          {formError}
        </Alert>
      )}
      {step === 'account' && (
        <form onSubmit={toSite} noValidate aria-label="Your account">
          <Stack gap="sm">
            <Group grow align="flex-start">
              <TextInput label="First name" autoComplete="given-name" {...account.getInputProps('first_name')} />
              <TextInput label="Last name" autoComplete="family-name" {...account.getInputProps('last_name')} />
            </Group>
            <TextInput label="Email address" type="email" autoComplete="email" required {...account.getInputProps('email')} />
            <NewPasswordField
              label="Password"
              autoComplete="new-password"
              required
              {...account.getInputProps('password')}
              value={account.getValues().password}
            />
            <TextInput
              label="Confirm your password"
              type="password"
              autoComplete="new-password"
              required
              {...account.getInputProps('password_confirm')}
            />
            <Group justify="flex-end">
              <Button type="submit">Next</Button>
            </Group>
          </Stack>
        </form>
      )}
      {step === 'site' && (
        <form onSubmit={create} noValidate aria-label="Your organization">
          <Stack gap="sm">
            <TextInput
              label="Company or team name"
              description="Shown in the header and on the sign-in page."
              required
              autoFocus
              {...site.getInputProps('site_name')}
            />
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep('account')}>
                Back
              </Button>
              <Button type="submit" loading={setup.isPending}>
                Next
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {step === 'database' && <DatabaseStep onDone={() => setStep('done')} />}
      {step === 'done' && (
        <Stack gap="sm">
          <Text>Your account is ready. You can add more databases and people in the admin settings.</Text>
          <Button onClick={() => navigate('/', { replace: true })}>Take me to {props.data?.['site-name'] ?? 'the home page'}</Button>
        </Stack>
      )}
    </AuthLayout>
  );
}

function validateAccount(v: { email: string; password: string; password_confirm: string }) {
  return {
    email: EMAIL.test(v.email.trim()) ? null : 'Enter a valid email address.',
    password: v.password ? null : 'Choose a password.',
    password_confirm: v.password_confirm === v.password ? null : 'The passwords do not match.',
  };
}

/** Keep what is there (the Sample Database, when the server loaded it) or connect a database now. */
function DatabaseStep({ onDone }: { onDone(): void }) {
  const databases = useDatabases();
  const [choice, setChoice] = useState<'later' | 'connect'>('later');
  const [connecting, setConnecting] = useState(false);
  const sample = databases.data?.find((d) => d.name === 'Sample Database');
  if (connecting) return <DatabaseForm onCreated={onDone} onCancel={() => setConnecting(false)} />;
  return (
    <Stack gap="md">
      <Radio.Group value={choice} onChange={(v) => setChoice(v as 'later' | 'connect')} label="Your data">
        <Stack gap="xs" mt="xs">
          <Radio value="later" label={sample ? 'Keep the Sample Database for now and add my data later' : 'I will add my data later'} />
          <Radio value="connect" label="Connect a database now" />
        </Stack>
      </Radio.Group>
      <Group justify="flex-end">
        <Button onClick={() => (choice === 'connect' ? setConnecting(true) : onDone())}>Next</Button>
      </Group>
    </Stack>
  );
}

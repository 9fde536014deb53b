import { Alert, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useLogin, useSessionProperties } from '../api/session';
import { usePageTitle } from '../components/PageTitle';
import { showApiErrors } from '../forms/api-errors';
import { AuthLayout } from './AuthLayout';
import { safeRedirect } from './redirect';

/**
 * `/auth/login`: email and password (`POST /api/session`), the server's wrong-password and throttling messages at
 * their field; "Sign in with SSO" when JWT or SAML is on (through /auth/sso, which comes back to `redirect`).
 */
export function LoginPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect'));
  const props = useSessionProperties();
  const login = useLogin();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) => (v.trim() ? null : 'Enter your email address.'),
      password: (v) => (v ? null : 'Enter your password.'),
    },
  });

  if (props.data?.['setup-token']) return <Navigate to="/setup" replace />;
  const passwordLogin = props.data?.['enable-password-login'] !== false;
  const sso = props.data?.['other-sso-enabled?'] === true;

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await login.mutateAsync({ username: values.email.trim(), password: values.password });
      navigate(redirect, { replace: true });
    } catch (e) {
      showApiErrors(form, e, { fields: { username: 'email' }, onOther: setFormError });
    }
  });

  return (
    <AuthLayout title="Sign in">
      {passwordLogin && (
        <form onSubmit={submit} noValidate aria-label="Sign in">
          <Stack gap="md">
            {formError && (
              <Alert color="red" variant="light" role="alert">
                {formError}
              </Alert>
            )}
            <TextInput label="Email address" type="email" autoComplete="username" autoFocus required {...form.getInputProps('email')} />
            <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
            <Button type="submit" loading={login.isPending} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      )}
      {passwordLogin && sso && <Divider label="or" labelPosition="center" />}
      {sso && (
        <Button component="a" href={`/auth/sso?return_to=${encodeURIComponent(redirect)}`} variant="default" fullWidth>
          Sign in with SSO
        </Button>
      )}
      {!passwordLogin && !sso && props.isSuccess && <Text>Signing in is turned off on this site. Ask its administrator.</Text>}
    </AuthLayout>
  );
}

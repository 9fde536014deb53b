import { Alert, Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { ApiError } from '../api/client';
import { NoPermission } from './NoPermission';

/**
 * Every route's error boundary: a page that failed to load or draw says so in place (the shell around it stays),
 * never a blank page. A 403 is the permission page; a chunk that failed to download (a rebuild replaced it) asks
 * for a reload.
 */
export function RouteError() {
  const error = useRouteError();
  if (error instanceof ApiError && error.status === 403) return <NoPermission />;
  const status = isRouteErrorResponse(error) ? error.status : error instanceof ApiError ? error.status : undefined;
  const message =
    status === 404
      ? 'The page you asked for could not be found.'
      : error instanceof Error
        ? error.message
        : isRouteErrorResponse(error)
          ? error.statusText
          : 'An unexpected error occurred.';
  return (
    <Center p="xl" component="section" aria-labelledby="route-error-title">
      <Stack maw={560} gap="sm">
        <Title order={1} id="route-error-title">
          {status === 404 ? 'Not found' : 'Something went wrong'}
        </Title>
        <Alert color="red" variant="light" role="alert">
          <Text>{message}</Text>
        </Alert>
        <Text>
          <Anchor component={Link} to="/">
            Go to the home page
          </Anchor>{' '}
          or{' '}
          <Anchor component="button" type="button" onClick={() => window.location.reload()}>
            reload this page
          </Anchor>
          .
        </Text>
      </Stack>
    </Center>
  );
}

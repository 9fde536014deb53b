import { Alert, Button, Group, Skeleton, Stack, Switch, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useSettings, useUpdateSettings } from '../../api/setting';
import { useTenants, useUpdateTenant, type Tenant } from '../../api/tenant';
import { usePageTitle } from '../../components/PageTitle';
import { notifySuccess } from '../../notify';
import { PeopleNav } from './PeopleNav';
import { CreateTenantForm, RenameTenantModal } from './TenantForms';

/**
 * `/admin/people/tenants`: the `use-tenants` switch, and the tenants (external organisations whose people sign in
 * through SSO) with their members; create, rename, deactivate and reactivate them (the server deletes none).
 */
export function TenantsPage() {
  usePageTitle('Tenants');
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const enabled = settings.data?.['use-tenants']?.value === true;
  const fixed = settings.data?.['use-tenants']?.is_env_setting === true;
  const tenants = useTenants(enabled);
  const update = useUpdateTenant();
  const [renaming, setRenaming] = useState<Tenant | null>(null);
  const [error, setError] = useState<string | null>(null);

  const toggle = (on: boolean) => {
    setError(null);
    updateSettings.mutate(
      { 'use-tenants': on },
      { onSuccess: () => notifySuccess(on ? 'Tenants are turned on.' : 'Tenants are turned off.'), onError: (e) => setError(e.message) },
    );
  };
  const setActive = (t: Tenant, active: boolean) => {
    setError(null);
    update.mutate(
      { id: t.id, is_active: active },
      {
        onSuccess: () => notifySuccess(active ? `${t.name} is reactivated.` : `${t.name} is deactivated, and its people with it.`),
        onError: (e) => setError(e.message),
      },
    );
  };

  return (
    <Stack gap="md">
      <Title order={1}>Tenants</Title>
      <PeopleNav />
      {settings.isPending ? (
        <Skeleton height={36} aria-label="Loading the settings" />
      ) : (
        <Switch
          label="Use tenants"
          description={
            fixed
              ? 'Set by an environment variable.'
              : 'External people signing in through SSO belong to a tenant, apart from internal people.'
          }
          checked={enabled}
          disabled={fixed || updateSettings.isPending}
          onChange={(e) => toggle(e.currentTarget.checked)}
        />
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" title="Not saved">
          {error}
        </Alert>
      )}
      {enabled && (
        <>
          <CreateTenantForm />
          {tenants.isError && (
            <Alert color="red" variant="light" role="alert" title="The tenants could not be loaded">
              {tenants.error.message}
            </Alert>
          )}
          {tenants.isPending ? (
            <Skeleton height={200} aria-label="Loading the tenants" />
          ) : tenants.data?.length === 0 ? (
            <Text>No tenants yet: create one, or they are made when their people first sign in.</Text>
          ) : (
            <Table striped aria-label="Tenants">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Slug</Table.Th>
                  <Table.Th>Members</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(tenants.data ?? []).map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Th scope="row" fw={500}>
                      {t.name}
                    </Table.Th>
                    <Table.Td>{t.slug}</Table.Td>
                    <Table.Td>{t.member_count}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={t.is_active ? 600 : 400}>
                        {t.is_active ? 'Active' : 'Deactivated'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="compact-sm" variant="subtle" onClick={() => setRenaming(t)} aria-label={`Rename ${t.name}`}>
                          Rename
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color={t.is_active ? 'red' : undefined}
                          onClick={() => setActive(t, !t.is_active)}
                          aria-label={`${t.is_active ? 'Deactivate' : 'Reactivate'} ${t.name}`}
                        >
                          {t.is_active ? 'Deactivate' : 'Reactivate'}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
      {renaming && <RenameTenantModal tenant={renaming} onClose={() => setRenaming(null)} />}
    </Stack>
  );
}

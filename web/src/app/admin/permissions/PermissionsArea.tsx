import { Stack, Title } from '@mantine/core';
import { Navigate, Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { usePageTitle } from '../../components/PageTitle';
import { CollectionPermissions } from './CollectionPermissions';
import { DataPermissions } from './DataPermissions';
import { PermissionsNav } from './PermissionsNav';

/** Admin > Permissions: `/admin/permissions/data/...` and `/admin/permissions/collections/...` (Metabase's paths). */
export default function PermissionsArea() {
  usePageTitle('Permissions');
  return (
    <Stack gap="md">
      <Title order={1}>Permissions</Title>
      <PermissionsNav />
      <Routes>
        <Route index element={<Navigate to="data" replace />} />
        <Route path="data/*" element={<DataPermissions />} />
        <Route path="collections/*" element={<CollectionPermissions />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Stack>
  );
}

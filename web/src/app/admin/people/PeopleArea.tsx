import { Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { GroupPage } from './GroupPage';
import { GroupsPage } from './GroupsPage';
import { PeopleListPage } from './PeopleListPage';
import { TenantsPage } from './TenantsPage';

/** Admin > People: `/admin/people`, `/admin/people/groups`, `/admin/people/groups/:id` (Metabase's paths), `/admin/people/tenants`. */
export default function PeopleArea() {
  return (
    <Routes>
      <Route index element={<PeopleListPage />} />
      <Route path="groups" element={<GroupsPage />} />
      <Route path="groups/:id" element={<GroupPage />} />
      <Route path="tenants" element={<TenantsPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

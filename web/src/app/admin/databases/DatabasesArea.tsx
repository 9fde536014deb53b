import { Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { DatabaseListPage } from './DatabaseListPage';
import { DatabasePage } from './DatabasePage';
import { NewDatabasePage } from './NewDatabasePage';

/** Admin > Databases: `/admin/databases`, `/admin/databases/create`, `/admin/databases/:id` (Metabase's paths). */
export default function DatabasesArea() {
  return (
    <Routes>
      <Route index element={<DatabaseListPage />} />
      <Route path="create" element={<NewDatabasePage />} />
      <Route path=":id" element={<DatabasePage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

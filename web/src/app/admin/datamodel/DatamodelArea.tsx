import { Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { DatamodelLayout } from './DatamodelLayout';
import { FieldPage } from './FieldPage';
import { TablePage } from './TablePage';

/**
 * Admin > Table metadata: `/admin/datamodel`, `.../database/:dbId`, `.../database/:dbId/table/:tableId` and
 * `.../table/:tableId/field/:fieldId` (a field's display values).
 */
export default function DatamodelArea() {
  return (
    <Routes>
      <Route element={<DatamodelLayout />}>
        <Route index element={null} />
        <Route path="database/:dbId" element={null} />
        <Route path="database/:dbId/table/:tableId" element={<TablePage />} />
        <Route path="database/:dbId/table/:tableId/field/:fieldId" element={<FieldPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

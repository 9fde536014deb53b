import { Navigate, Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { SubNav } from '../SubNav';
import { DiagnosticsPage } from './DiagnosticsPage';
import { LogsPage } from './LogsPage';

const BASE = '/admin/tools';

/** Admin > Tools: looking into the server (Metabase's paths: /admin/tools/logs, /admin/tools/help). */
export default function ToolsArea() {
  return (
    <>
      <SubNav
        label="Tools"
        items={[
          { to: `${BASE}/logs`, label: 'Logs' },
          { to: `${BASE}/help`, label: 'Diagnostic info' },
        ]}
      />
      <Routes>
        <Route index element={<Navigate to="logs" replace />} />
        <Route path="logs" element={<LogsPage />} />
        <Route path="help" element={<DiagnosticsPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}

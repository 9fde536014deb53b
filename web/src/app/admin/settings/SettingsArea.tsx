import { Navigate, Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { SubNav } from '../SubNav';
import { AuthenticationSettings } from './AuthenticationSettings';
import { CachingSettings } from './CachingSettings';
import { GeneralSettings } from './GeneralSettings';
import { JwtSettings } from './JwtSettings';
import { PublicSharingSettings } from './PublicSharingSettings';
import { SamlSettings } from './SamlSettings';
import { UploadsSettings } from './UploadsSettings';

const BASE = '/admin/settings';

/** Admin > Settings, at Metabase's paths (`/admin/settings/general`...); API keys are an area of their own below it. */
export default function SettingsArea() {
  return (
    <>
      <SubNav
        label="Settings"
        items={[
          { to: `${BASE}/general`, label: 'General' },
          { to: `${BASE}/authentication`, label: 'Authentication' },
          { to: `${BASE}/public-sharing`, label: 'Public sharing' },
          { to: `${BASE}/uploads`, label: 'Uploads' },
          { to: `${BASE}/caching`, label: 'Caching' },
        ]}
      />
      <Routes>
        <Route index element={<Navigate to="general" replace />} />
        <Route path="general" element={<GeneralSettings />} />
        <Route path="authentication" element={<AuthenticationSettings />} />
        <Route path="authentication/jwt" element={<JwtSettings />} />
        <Route path="authentication/saml" element={<SamlSettings />} />
        <Route path="public-sharing" element={<PublicSharingSettings />} />
        <Route path="uploads" element={<UploadsSettings />} />
        <Route path="caching" element={<CachingSettings />} />
        {/* Older releases' path of the embedding settings, which links and bookmarks still use. */}
        <Route path="embedding-in-other-applications/*" element={<Navigate to="/admin/embedding" replace />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}

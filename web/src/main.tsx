import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/http';
import { applyOptions, parseHash } from './hash-options';
import { ErrorPage } from './pages/ErrorPage';
import { EmbedDashboard, EmbedQuestion, PublicDashboard, PublicQuestion } from './pages/pages';
import './styles.css';

const PAGES = {
  'public/question': PublicQuestion,
  'public/dashboard': PublicDashboard,
  'embed/question': EmbedQuestion,
  'embed/dashboard': EmbedDashboard,
} as const;

/** The page of the path: /public/question/:uuid, /public/dashboard/:uuid, /embed/question/:token, /embed/dashboard/:token. */
function route(pathname: string): { page: keyof typeof PAGES; id: string } | null {
  const m = /^\/(public|embed)\/(question|dashboard)\/([^/]+)\/?$/.exec(pathname);
  return m ? { page: `${m[1]}/${m[2]}` as keyof typeof PAGES, id: decodeURIComponent(m[3]) } : null;
}

function App() {
  const [{ options, defaults }] = useState(() => parseHash(window.location.hash));
  const [error, setError] = useState<ApiError | Error | null>(null);
  const onLoadError = useCallback((e: Error) => setError(e), []);
  applyOptions(options);
  const found = route(window.location.pathname);
  if (!found) return <ErrorPage status={404} />;
  if (error) return <ErrorPage status={error instanceof ApiError ? error.status : undefined} message={error.message} />;
  const Page = PAGES[found.page];
  return (
    <main className="page" data-page={found.page}>
      <Page id={found.id} options={options} defaults={defaults} onLoadError={onLoadError} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/http';
import { applyOptions, parseHash } from './hash-options';
import { ErrorPage } from './pages/ErrorPage';
import { EmbedDashboard, EmbedQuestion, PublicDashboard, PublicQuestion } from './pages/pages';
import '@fontsource/lato/400.css';
import '@fontsource/lato/400-italic.css';
import '@fontsource/lato/700.css';
import '@fontsource/lato/900.css';
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

/**
 * Charts measure their labels when they are laid out: drawn before Lato arrives, they would keep the fallback font's
 * widths. The font is served with the page, so waiting for it costs little; a slow network waits at most FONT_WAIT_MS.
 */
const FONT_WAIT_MS = 1000;
const fontsLoaded = Promise.all(['400 14px Lato', '700 14px Lato', '900 14px Lato'].map((f) => document.fonts.load(f)));
Promise.race([fontsLoaded, new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS))])
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );

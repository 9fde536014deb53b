import { Alert, Box, Loader } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { Dashboard } from '../../../dashboard/Dashboard';
import { QuestionView } from '../../../question/QuestionView';
import viewerCss from '../../../styles.css?inline';
import type { Theme } from '../../../visualizations';
import { previewDashboardClient, previewQuestionClient } from './preview-client';

/**
 * The live preview: the embed page's own viewer (web/src/dashboard and its stylesheet) drawn inside an iframe, so
 * its page-wide styles stay out of the application, reading `/api/preview-embed` with the token the server signed
 * for the rules being tried. The appearance goes on the frame's root as the embed page puts it (data-theme,
 * data-bordered); the title is the viewer's own option.
 */
export function EmbedPreview(props: {
  kind: 'dashboard' | 'question';
  token: string | null;
  error: Error | null;
  theme: Theme;
  bordered: boolean;
  titled: boolean;
}) {
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const [body, setBody] = useState<HTMLElement | null>(null);
  const [loadError, setLoadError] = useState<Error | null>(null);
  const { kind, token } = props;
  const clients = useMemo(
    () =>
      token === null
        ? null
        : kind === 'dashboard'
          ? { dashboard: previewDashboardClient(token) }
          : { question: previewQuestionClient(token) },
    [kind, token],
  );
  const onLoadError = useCallback((e: Error) => setLoadError(e), []);

  useEffect(() => {
    if (!frame?.contentDocument) return;
    const doc = frame.contentDocument;
    doc.open();
    doc.write('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview</title></head><body></body></html>');
    doc.close();
    const style = doc.createElement('style');
    style.textContent = viewerCss;
    doc.head.appendChild(style);
    setBody(doc.body);
  }, [frame]);

  useEffect(() => {
    const root = frame?.contentDocument?.documentElement;
    if (!root) return;
    root.dataset.theme = props.theme;
    root.dataset.bordered = String(props.bordered);
  }, [frame, body, props.theme, props.bordered]);

  useEffect(() => setLoadError(null), [props.token]);

  const error = props.error ?? loadError;
  return (
    <Box pos="relative">
      {error && (
        <Alert color="red" role="alert" title="The preview could not be loaded" mb="xs">
          {error.message}
        </Alert>
      )}
      {!props.token && !error && <Loader size="sm" aria-label="Loading the preview" />}
      <iframe
        ref={setFrame}
        title="Embed preview"
        style={{ width: '100%', height: 480, border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
      />
      {body &&
        clients &&
        createPortal(
          // The embed page's own frame (web/src/main.tsx), which its border option styles.
          <main className="page">
            {clients.dashboard ? (
              <Dashboard
                key={token}
                client={clients.dashboard}
                options={{ theme: props.theme, titled: props.titled }}
                onLoadError={onLoadError}
              />
            ) : (
              <QuestionView
                key={token}
                client={clients.question!}
                options={{ theme: props.theme, titled: props.titled, hideDownloadButton: true }}
                onLoadError={onLoadError}
              />
            )}
          </main>,
          body,
        )}
    </Box>
  );
}

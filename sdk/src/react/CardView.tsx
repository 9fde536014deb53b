import { useState, type ReactNode } from 'react';
import { Visualization } from '../../../web/src/visualizations';
import type { Dataset } from '../../../web/src/visualizations';
import type { Loaded } from './use-api';
import type { ApiDataset } from './api-types';
import { useAnalyticsContext } from './context';

export interface CardViewProps {
  title?: string;
  display: string;
  settings: Record<string, unknown>;
  result: Loaded<ApiDataset>;
  height?: number | string;
  onDownload?: () => Promise<void>;
  onClickCell?: (e: { rowIndex: number; colIndex: number; value: unknown }) => void;
  toolbar?: ReactNode;
}

/** A card's title, its download button and its visualization, or a loading or error note in its place. */
export function CardView({ title, display, settings, result, height, onDownload, onClickCell, toolbar }: CardViewProps) {
  const { theme } = useAnalyticsContext('An embedded analytics component');
  const [downloadError, setDownloadError] = useState<string | null>(null);
  return (
    <div
      data-testid="analytics-card"
      data-state={result.state}
      style={{ display: 'flex', flexDirection: 'column', height: height ?? '100%', minHeight: 0, boxSizing: 'border-box' }}
    >
      {(title || onDownload || toolbar) && (
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 0', minHeight: 28 }}>
          {title && (
            <h2
              data-testid="analytics-title"
              style={{
                margin: 0,
                fontSize: 16,
                fontWeight: 700,
                flex: '1 1 auto',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
            >
              {title}
            </h2>
          )}
          {toolbar}
          {onDownload && (
            <button
              type="button"
              data-testid="analytics-download"
              onClick={() =>
                onDownload().then(
                  () => setDownloadError(null),
                  (e: Error) => setDownloadError(e.message),
                )
              }
              style={buttonStyle}
            >
              Download CSV
            </button>
          )}
        </div>
      )}
      {downloadError && (
        <div role="alert" style={{ color: '#ed6e6e', fontSize: 12 }}>
          {downloadError}
        </div>
      )}
      <div style={{ flex: '1 1 auto', minHeight: 0 }}>
        {result.state === 'loading' && (
          <div data-testid="analytics-loading" style={{ padding: 16, opacity: 0.7 }}>
            Loading…
          </div>
        )}
        {result.state === 'error' && <ErrorNote message={result.message} />}
        {result.state === 'ready' && (
          <Visualization
            display={display}
            settings={settings}
            data={result.data.data as unknown as Dataset}
            theme={theme.preset}
            onClickCell={onClickCell}
          />
        )}
      </div>
    </div>
  );
}

export function ErrorNote({ message }: { message: string }) {
  return (
    <div role="alert" data-testid="analytics-error" style={{ padding: 16, color: '#ed6e6e' }}>
      {message}
    </div>
  );
}

export const buttonStyle = {
  padding: '4px 10px',
  border: '1px solid var(--analytics-border)',
  borderRadius: 6,
  background: 'transparent',
  color: 'var(--analytics-brand)',
  cursor: 'pointer',
  fontSize: 12,
  fontWeight: 700,
} as const;

import { useState } from 'react';
import type { ExportFormat } from '../api/types';

/** A "Download" button opening a menu of formats; `formats` those the client can serve. */
export function DownloadMenu(props: { formats: ExportFormat[]; onDownload: (format: ExportFormat) => void | Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="download-menu" data-testid="download-menu">
      <button type="button" className="icon-button" aria-label="Download results" aria-expanded={open} onClick={() => setOpen(!open)}>
        ⤓
      </button>
      {open && (
        <span className="menu" role="menu">
          {props.formats.map((f) => (
            <button
              type="button"
              role="menuitem"
              key={f}
              data-format={f}
              onClick={() => {
                setOpen(false);
                Promise.resolve(props.onDownload(f)).catch((e: Error) => setError(e.message));
              }}
            >
              .{f}
            </button>
          ))}
        </span>
      )}
      {error && <span className="menu-error">{error}</span>}
    </span>
  );
}

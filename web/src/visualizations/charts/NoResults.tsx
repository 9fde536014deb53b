import { useEffect } from 'react';
import { palette } from '../theme';
import type { Theme } from '../types';

/** What a chart shows for an empty answer; drawn at once. */
export function NoResults({ theme, onReady, message = 'No results!' }: { theme: Theme; onReady: () => void; message?: string }) {
  useEffect(() => onReady(), [onReady]);
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        height: '100%',
        color: palette(theme).textMuted,
        fontSize: 16,
      }}
    >
      {message}
    </div>
  );
}

import { useSyncExternalStore } from 'react';

/**
 * Counts the times the page's fonts finished loading. Charts measure their labels when they draw: one drawn with a
 * fallback font (the page's font arrived late, as on a slow network) keeps that font's widths until it draws again, so
 * a chart draws again, and reports itself loading until then, whenever this count changes.
 */
let epoch = 0;
const listeners = new Set<() => void>();
let listening = false;

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  if (!listening && typeof document !== 'undefined' && document.fonts) {
    listening = true;
    document.fonts.addEventListener('loadingdone', () => {
      epoch += 1;
      for (const l of listeners) l();
    });
  }
  return () => listeners.delete(onChange);
}

export const useFontsEpoch = (): number => useSyncExternalStore(subscribe, () => epoch);

import { useSyncExternalStore } from 'react';

/**
 * Whether the app's frame (header and collections navigation) is hidden: a page in full screen (a dashboard) asks
 * for it, and gives it back when it leaves full screen or unmounts.
 */
let hidden = false;
const listeners = new Set<() => void>();

export function setChromeHidden(value: boolean): void {
  if (hidden === value) return;
  hidden = value;
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useChromeHidden = () => useSyncExternalStore(subscribe, () => hidden);

import { useEffect, useState } from 'react';
import { setChromeHidden } from '../shell/chrome';

/**
 * A dashboard's full screen, as Metabase's: the app's header and navigation go away, and the browser is asked to fill
 * the screen with the page (a browser that refuses, or leaves it with Escape, still gets or ends the app's own mode).
 */
export function useDashboardFullscreen(): { fullscreen: boolean; toggle: () => void } {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    setChromeHidden(fullscreen);
    return () => setChromeHidden(false);
  }, [fullscreen]);
  useEffect(() => {
    // The browser's own way out (Escape) ends the mode too.
    const changed = () => {
      if (!document.fullscreenElement) setFullscreen(false);
    };
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, []);
  const toggle = () => {
    if (fullscreen) {
      setFullscreen(false);
      if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    } else {
      setFullscreen(true);
      document.documentElement.requestFullscreen?.().catch(() => undefined);
    }
  };
  return { fullscreen, toggle };
}

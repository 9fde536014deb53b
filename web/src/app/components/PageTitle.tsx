import { useEffect } from 'react';
import { useSessionProperties } from '../api/session';

/** Sets the browser tab's title: "<page> · <site name>". */
export function usePageTitle(page: string | null): void {
  const site = useSessionProperties().data?.['site-name'];
  useEffect(() => {
    document.title = [page, site].filter(Boolean).join(' · ') || 'Analytics';
  }, [page, site]);
}

import type { Settings } from '../../visualizations/types';

/** An ad-hoc question as its URL carries it: `/question#<base64 of this JSON>`, as Metabase's client does. */
export interface AdhocCard {
  dataset_query: Record<string, unknown>;
  display: string;
  visualization_settings: Settings;
  /** The saved question it was drilled from: its collection's timelines stay shown. */
  original_card_id?: number;
}

/** The URL of an ad-hoc question: its card as base64 (UTF-8) JSON in the hash. */
export function adhocPath(card: AdhocCard): string {
  return `/question#${base64Json(card)}`;
}

/** The x-ray of an ad-hoc query (Metabase's `/auto/dashboard/adhoc/<base64 dataset_query>`), URL-safe base64. */
export function adhocXrayPath(query: Record<string, unknown>): string {
  return `/auto/dashboard/adhoc/${base64Json(query).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

function base64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

/** The card of a `/question#…` hash; null when the hash is not one. */
export function parseAdhoc(hash: string): AdhocCard | null {
  const raw = hash.replace(/^#/, '');
  if (!raw) return null;
  try {
    const text = atob(decodeURIComponent(raw));
    const card = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (ch) => ch.charCodeAt(0)))) as Partial<AdhocCard>;
    if (!card || typeof card !== 'object' || !card.dataset_query || typeof card.dataset_query !== 'object') return null;
    return {
      dataset_query: card.dataset_query,
      display: typeof card.display === 'string' ? card.display : 'table',
      visualization_settings:
        card.visualization_settings && typeof card.visualization_settings === 'object' ? card.visualization_settings : {},
      ...(typeof card.original_card_id === 'number' ? { original_card_id: card.original_card_id } : {}),
    };
  } catch {
    return null;
  }
}

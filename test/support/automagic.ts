import { auth } from './factories';
import type { TestApp } from './test-app';

export interface XrayDashcard {
  id: number;
  card: { name: string; display: string; dataset_query: { database: number; type: string; query: Record<string, unknown> } } | null;
  parameter_mappings: Array<{ parameter_id: string; target: unknown[] }>;
  visualization_settings: Record<string, unknown> & { text?: string };
  row: number;
  col: number;
  size_x: number;
  size_y: number;
}

export interface XrayDashboard {
  id: null;
  name: string;
  description: string;
  parameters: Array<{ id: string; name: string; slug: string; type: string }>;
  dashcards: XrayDashcard[];
  related: Record<string, Array<{ url: string; title: string }>>;
  more: string | null;
  [key: string]: unknown;
}

/** Runs every card of an x-ray through POST /api/dataset as `who`; each must complete with at least one row. */
export async function runXrayCards(t: TestApp, who: string, d: XrayDashboard): Promise<void> {
  for (const dc of d.dashcards) {
    if (!dc.card) continue;
    const res = (await t.http().post('/api/dataset').set(auth(who)).send(dc.card.dataset_query).expect(202)).body;
    expect({ card: dc.card.name, status: res.status, error: res.error }).toEqual({
      card: dc.card.name,
      status: 'completed',
      error: undefined,
    });
    expect({ card: dc.card.name, rows: res.data.rows.length > 0 }).toEqual({ card: dc.card.name, rows: true });
  }
}

import { auth } from './factories';
import type { TestApp } from './test-app';

export interface MadeDashboard {
  id: number;
  dashcards: Array<{ id: number; card_id: number | null; [key: string]: unknown }>;
  tabs: Array<{ id: number; name: string }>;
  [key: string]: unknown;
}

/** POST /api/dashboard as `session` (200 expected), `extra` added to the body. */
export async function makeDashboard(t: TestApp, session: string, extra: Record<string, unknown> = {}): Promise<MadeDashboard> {
  const res = await t
    .http()
    .post('/api/dashboard')
    .set(auth(session))
    .send({ name: `Dash ${Math.random().toString(36).slice(2, 8)}`, ...extra });
  if (res.status !== 200) throw new Error(`dashboard create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as MadeDashboard;
}

/** A dashcard body for PUT: a new one (negative id) showing `cardId` at `row`. */
export const newDashcard = (id: number, cardId: number | null, extra: Record<string, unknown> = {}) => ({
  id,
  card_id: cardId,
  row: 0,
  col: 0,
  size_x: 4,
  size_y: 4,
  parameter_mappings: [],
  visualization_settings: {},
  series: [],
  ...extra,
});

/** A dashboard with one dashcard per card id, in one line: `await dashboardWith(t, admin, [a.id, b.id])`. */
export async function dashboardWith(
  t: TestApp,
  session: string,
  cardIds: number[],
  extra: Record<string, unknown> = {},
): Promise<MadeDashboard> {
  const d = await makeDashboard(t, session, extra);
  const dashcards = cardIds.map((cardId, i) => newDashcard(-(i + 1), cardId, { row: i * 4 }));
  const res = await t.http().put(`/api/dashboard/${d.id}`).set(auth(session)).send({ dashcards });
  if (res.status !== 200) throw new Error(`dashboard dashcards failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as MadeDashboard;
}

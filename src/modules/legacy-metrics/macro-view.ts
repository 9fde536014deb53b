import { commonName, iso } from '../users/user.view';
import type { User } from '../users/user.entity';
import type { AnyMacro, MacroModel } from './macro-model';
import { macroSnapshot } from './macro-snapshot';

/** The `creator` of a segment or metric, as Metabase hydrates a user. */
export function creatorView(u: User) {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    common_name: commonName(u),
    is_superuser: u.is_superuser,
    is_qbnewb: u.is_qbnewb,
    date_joined: iso(u.date_joined),
    last_login: iso(u.last_login),
  };
}

export interface MacroExtras {
  creator: ReturnType<typeof creatorView> | null;
  query_description?: Record<string, unknown>;
  database_id?: number | null;
}

/** The wire shape of a segment (GET /api/segment/:id) or a metric (GET /api/metric/:id), with what was hydrated. */
export function toMacroView(model: MacroModel, m: AnyMacro, extras: MacroExtras) {
  return { ...macroSnapshot(model, m), created_at: iso(m.created_at), updated_at: iso(m.updated_at), ...extras };
}

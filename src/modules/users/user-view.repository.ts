import { typedRow, type RowShape } from '../../common/database/row-values';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { parseJson } from '../../common/database/stored-json';
import { isoTime } from '../../common/database/sql-time';
import { type UserView } from './user.view';
import { structuredAttributes, systemAttributes } from './user-attributes';
import { commonName } from '../../common/views/wire-values';
import { UserViewCache } from './user-view.cache';

interface UserViewRow {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  is_superuser: boolean;
  is_active: boolean;
  is_qbnewb: boolean;
  locale: string | null;
  login_attributes: string | null;
  jwt_attributes: string | null;
  sso_source: string | null;
  tenant_id: number | null;
  tenant_slug: string | null;
  date_joined: Date | string;
  last_login: Date | string | null;
  updated_at: Date | string;
  personal_collection_id: number | null;
  /** `group:manager` pairs (manager 1 or 0), by group id. */
  memberships: string | null;
}

const USER_VIEW_ROW_SHAPE: RowShape = {
  numbers: ['id', 'personal_collection_id', 'tenant_id'],
  booleans: ['is_superuser', 'is_active', 'is_qbnewb'],
};

/**
 * One user as the API shows it in one statement: GET /api/user/current runs on every page load of every client, and
 * the entity, its memberships and its personal collection through the ORM took three round trips and most of the
 * request's time. Gives what toUserView gives from the entities.
 */
@Injectable()
export class UserViewRepository {
  private readonly sql: AppSql;

  constructor(
    db: DataSource,
    private readonly kept: UserViewCache,
  ) {
    this.sql = new AppSql(db);
  }

  /** byId's answer, kept until anything it shows changes. Frozen: shared by every request for this user. */
  current(id: number): Promise<UserView | undefined> {
    return this.kept.get(String(id), async () => {
      const view = await this.byId(id);
      return view && { value: view };
    });
  }

  async byId(id: number): Promise<UserView | undefined> {
    const pairs = this.sql.pg
      ? `string_agg(m.group_id::text || ':' || CASE WHEN m.is_group_manager THEN '1' ELSE '0' END, ',' ORDER BY m.group_id)`
      : `group_concat(m.group_id || ':' || m.is_group_manager, ',' ORDER BY m.group_id)`;
    const [row] = await this.sql.query<Record<string, unknown>>(
      `SELECT u.id, u.email, u.first_name, u.last_name, u.is_superuser, u.is_active, u.is_qbnewb, u.locale, u.login_attributes,
        u.jwt_attributes, u.sso_source, u.tenant_id, u.date_joined, u.last_login, u.updated_at,
        (SELECT t.slug FROM tenant t WHERE t.id = u.tenant_id) AS tenant_slug,
        (SELECT c.id FROM collection c WHERE c.personal_owner_id = u.id) AS personal_collection_id,
        (SELECT ${pairs} FROM permissions_group_membership m WHERE m.user_id = u.id) AS memberships
      FROM core_user u WHERE u.id = $1`,
      [id],
    );
    return row ? toView(typedRow<UserViewRow>(row, USER_VIEW_ROW_SHAPE)) : undefined;
  }
}

function attributesOf(r: UserViewRow): Pick<UserView, 'login_attributes' | 'jwt_attributes' | 'structured_attributes'> {
  const held = {
    login_attributes: parseJson<Record<string, unknown> | null>(r.login_attributes, null),
    jwt_attributes: parseJson<Record<string, unknown> | null>(r.jwt_attributes, null),
  };
  return { ...held, structured_attributes: structuredAttributes(held, systemAttributes(r.tenant_slug)) };
}

function toView(r: UserViewRow): UserView {
  const memberships = (r.memberships ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [group, manager] = pair.split(':');
      return { id: Number(group), is_group_manager: manager === '1' };
    });
  return {
    id: r.id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    common_name: commonName(r),
    is_superuser: r.is_superuser,
    is_active: r.is_active,
    is_qbnewb: r.is_qbnewb,
    is_installer: r.id === 1,
    locale: r.locale,
    date_joined: isoTime(r.date_joined)!,
    last_login: isoTime(r.last_login),
    updated_at: isoTime(r.updated_at)!,
    ...attributesOf(r),
    sso_source: r.sso_source,
    tenant_id: r.tenant_id,
    personal_collection_id: r.personal_collection_id,
    user_group_memberships: memberships,
    group_ids: memberships.map((m) => m.id),
  };
}

import { sqlBool } from '../../common/database/row-values';
import type { Engine, WarehouseDriver } from '../../query-engine/execute/drivers';

/**
 * What the connecting role may do beyond reading data. A superuser (or a role with the server-file privileges)
 * turns any native query into reading the server's files or running programs on it; the connection should use a
 * read-only role (see the README). Checked when a database is added or its details change; it warns, never refuses.
 */
const PG_ROLE_SQL = `
SELECT r.rolsuper AS superuser,
       r.rolreplication AS replication,
       COALESCE((SELECT string_agg(g.rolname, ',' ORDER BY g.rolname) FROM pg_roles g
                 WHERE g.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program')
                   AND pg_has_role(r.oid, g.oid, 'MEMBER')), '') AS server_roles
FROM pg_roles r
WHERE r.rolname = current_user`;

/** Global privileges of the connected account (ALL PRIVILEGES ON *.* lists each of them, SUPER and FILE included). */
const MYSQL_ROLE_SQL = `
SELECT PRIVILEGE_TYPE
FROM information_schema.USER_PRIVILEGES
WHERE GRANTEE = CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')
  AND PRIVILEGE_TYPE IN ('SUPER', 'FILE')`;

const ADVICE = 'Connect with a role that can only read the data it needs.';

/** Warnings about the connecting role, for the API answer and the log; empty when it looks read-only enough. */
export async function privilegedRoleWarnings(engine: Engine, driver: WarehouseDriver): Promise<string[]> {
  if (engine === 'postgres') {
    const { rows } = await driver.query(PG_ROLE_SQL, [], { readOnly: true, timeoutMs: 10_000 });
    const [superuser, replication, serverRoles] = (rows[0] ?? []) as [unknown, unknown, unknown];
    const warnings: string[] = [];
    if (sqlBool(superuser)) {
      warnings.push(
        "The connection's role is a Postgres superuser:" +
          ` native queries could read and write the server's files and run programs on it. ${ADVICE}`,
      );
    }
    const roles = typeof serverRoles === 'string' ? serverRoles.split(',').filter(Boolean) : [];
    if (roles.length && !sqlBool(superuser)) {
      warnings.push(
        `The connection's role is a member of ${roles.join(', ')}: native queries could reach the server's files or programs. ${ADVICE}`,
      );
    }
    if (sqlBool(replication) && !sqlBool(superuser)) {
      warnings.push(`The connection's role has the REPLICATION attribute: it can stream every change made on the server. ${ADVICE}`);
    }
    return warnings;
  }
  if (engine === 'mysql') {
    const { rows } = await driver.query(MYSQL_ROLE_SQL, [], { readOnly: true, timeoutMs: 10_000 });
    const privileges = new Set(rows.map((r) => String(r[0]).toUpperCase()));
    if (!privileges.size) return [];
    return [
      `The connection's account has the global ${[...privileges].sort().join(' and ')} privilege${privileges.size > 1 ? 's' : ''}: ` +
        `native queries could read or write the server's files or change its configuration. ${ADVICE}`,
    ];
  }
  return [];
}

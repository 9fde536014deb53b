/** Values as every module's answers put them on the wire, the way Metabase writes them. */

/** A user's name as Metabase's `common_name`: first and last name, or the email when both are blank. */
export function commonName(u: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = [u.first_name, u.last_name].filter((s) => s && s.trim()).join(' ');
  return name || u.email;
}

/** `commonName` of a user read by a join, whose email is null when there is no such user. */
export function commonNameOf(u: { email: string | null; first_name: string | null; last_name: string | null }): string | null {
  const name = [u.first_name, u.last_name].filter((s) => s && s.trim()).join(' ');
  return name || u.email;
}

/** A timestamp as ISO 8601 (TypeORM hands entity columns over as Dates). */
export function iso(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

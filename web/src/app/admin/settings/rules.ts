/**
 * The server's rules for setting values (src/modules/settings/setting-registry.ts), checked as the admin types, with
 * the server's words; the server checks them again when the form is saved.
 */

/** `httpUrl` of the registry; an empty value is "unset", which is allowed. */
export function httpUrl(value: string): string | null {
  if (!value.trim()) return null;
  try {
    const u = new URL(value.trim());
    if (u.protocol === 'http:' || u.protocol === 'https:') return null;
  } catch {
    /* not a URL */
  }
  return 'value must be an http:// or https:// URL.';
}

/** `jwt-shared-secret`'s rule. */
export function sharedSecret(value: string): string | null {
  if (!value || value.startsWith('**********')) return null;
  return value.length >= 16 ? null : 'value must be at least 16 characters long.';
}

/** A whole non-negative number, as the integer settings take. */
export function wholeNumber(value: unknown): string | null {
  if (value === '' || value === null || value === undefined) return null;
  return Number.isInteger(Number(value)) && Number(value) >= 0 ? null : 'value must be a whole number.';
}

/**
 * The server's rule for `embedding-app-origins-sdk` and `-interactive` (src/modules/settings/setting-registry.ts
 * `origins`, with the same words), checked as the admin types: space-separated origins, each `*`, or a host with an
 * optional `http://` or `https://`, an optional `*.` (any subdomain) and an optional port.
 * test/web/embedding-origins.spec.ts holds it to the server's on the same inputs.
 */
const ORIGIN = /^(\*|(https?:\/\/)?(\*\.)?[a-zA-Z0-9.-]+(:\d{1,5})?)$/;

export function originsProblem(value: string): string | null {
  const bad = value
    .split(/\s+/)
    .filter(Boolean)
    .find((o) => !ORIGIN.test(o));
  return bad ? `value must be a space-separated list of origins; "${bad}" is not one.` : null;
}

/** Whether the list holds the bare `*` (any site), which the server never trusts with cookies (src/common/http/origin-policy.ts). */
export const allowsAnySite = (value: string) => value.split(/\s+/).includes('*');

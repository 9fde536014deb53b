/**
 * Origin patterns of `embedding-app-origins-sdk` / `-interactive`: space-separated; `*`; `https://app.example.com`;
 * `app.example.com` (any scheme); `*.example.com` (any subdomain of it, not itself); an optional `:port`, which the
 * origin must then name (without one, the origin must use its scheme's default port).
 */
interface OriginPattern {
  any?: true;
  scheme?: string;
  host: string;
  wildcard: boolean;
  port: string;
}

const PATTERN = /^(?:(https?):\/\/)?(\*\.)?([a-z0-9.-]+)(?::(\d{1,5}))?$/;

export function parseOriginPatterns(setting: string | null | undefined): OriginPattern[] {
  const out: OriginPattern[] = [];
  for (const raw of (setting ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    if (raw === '*') {
      out.push({ any: true, host: '', wildcard: false, port: '' });
      continue;
    }
    const m = PATTERN.exec(raw.replace(/\/+$/, ''));
    if (m) out.push({ scheme: m[1], wildcard: Boolean(m[2]), host: m[3], port: m[4] ?? '' });
  }
  return out;
}

/** The origin as scheme, host and explicit port; undefined when it is not an http(s) origin. */
export function parseOrigin(origin: string): { scheme: string; host: string; port: string } | undefined {
  try {
    const u = new URL(origin);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== origin.toLowerCase().replace(/\/$/, '')) return undefined;
    return { scheme: u.protocol.slice(0, -1), host: u.hostname, port: u.port };
  } catch {
    return undefined;
  }
}

export function originMatches(origin: string, patterns: OriginPattern[]): boolean {
  const o = parseOrigin(origin);
  if (!o) return false;
  return patterns.some((p) => {
    if (p.any) return true;
    if (p.scheme && p.scheme !== o.scheme) return false;
    if (p.port !== o.port) return false;
    return p.wildcard ? o.host.endsWith(`.${p.host}`) : o.host === p.host;
  });
}

/** `localhost`, `127.0.0.1` or `[::1]`, any port: a developer's machine. */
export function isLocalhostOrigin(origin: string | undefined): boolean {
  if (!origin) return false;
  const o = parseOrigin(origin);
  return o !== undefined && (o.host === 'localhost' || o.host === '127.0.0.1' || o.host === '[::1]');
}

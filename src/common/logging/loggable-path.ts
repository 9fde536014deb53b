/** A path segment that is a JWT (header.payload.signature, base64url): an embed token, a bearer credential. */
const JWT_SEGMENT = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;

/**
 * The request path as logs may show it: signed embedding puts its token in the path (`/api/embed/card/<jwt>/query`),
 * and a token in a log line is a credential anyone reading the logs could use until it expires.
 */
export function loggablePath(path: string): string {
  if (!path.includes('.')) return path;
  return path
    .split('/')
    .map((segment) => (JWT_SEGMENT.test(segment) ? '<token>' : segment))
    .join('/');
}

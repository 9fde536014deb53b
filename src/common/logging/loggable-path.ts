/**
 * A JWT (header.payload.signature, base64url) anywhere in a path segment: alone (`/api/embed/card/<jwt>/query`), with
 * a suffix (`/embed/question/<jwt>.csv`) or inside other text. Real headers and payloads are far longer than 8
 * characters; dotted file names (`main.3f2a1b.js`) have shorter parts.
 */
const JWT = /[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;

/**
 * The request path as logs may show it: signed embedding puts its token in the path (`/api/embed/card/<jwt>/query`),
 * and a token in a log line is a credential anyone reading the logs could use until it expires. A segment is also
 * read percent-decoded (the router decodes parameters, so `%2E` works as a dot); one holding a token is logged as
 * `<token>`, whole.
 */
export function loggablePath(path: string): string {
  if (!path.includes('.') && !path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => (JWT.test(percentDecoded(segment)) ? '<token>' : segment))
    .join('/');
}

function percentDecoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment.replace(/%2e/gi, '.'); // malformed elsewhere: the dots are what matter
  }
}

import { json, urlencoded, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { MessageError, ValidationError } from '../errors/api-errors';

/** The largest JSON or form body taken, in bytes (uploads have their own limit). */
export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;
/**
 * How deep a JSON body may nest. Real bodies stay far below it (an MBQL query with nested expressions and source
 * queries, a permissions graph: a few dozen levels); beyond it, the recursive code that reads bodies (validation,
 * the query processor) would run out of stack on a body built to nest a million levels.
 */
export const MAX_JSON_DEPTH = 256;

export const BODY_UNPARSABLE = 'The request body could not be parsed.';
export const BODY_TOO_LARGE = `The request body is too large: at most ${BODY_LIMIT_BYTES / 1024 / 1024} MB is taken.`;
export const BODY_TOO_DEEP = `The request body nests too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects are taken.`;
export const BODY_NUL = 'The request body holds a NUL character (\\u0000), which no text value may contain.';
export const FORM_TOO_MANY_FIELDS = 'The form has too many fields: at most 1000 are taken.';
export const NOT_A_MAP = 'value must be a map.';

/**
 * JSON bodies. The literal `null` is no body, as Metabase treats it (a client sends it with every GET and DELETE);
 * another top-level value that is not an object or array (a number, a string) is a 400 in the validation shape,
 * since every endpoint that takes a body wants a map (or a list). Too deep a body is refused before any code
 * walks it recursively, and one holding a NUL character before it reaches the database.
 */
export function jsonBody(): RequestHandler {
  const parse = json({ limit: BODY_LIMIT_BYTES, strict: false });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: unknown) => {
      if (err) return next(clientError(err));
      const body: unknown = req.body;
      if (body === null) req.body = undefined;
      else if (body !== undefined && typeof body !== 'object') return next(ValidationError.of('body', NOT_A_MAP, body));
      else if (body !== undefined) {
        const flaw = flawOf(body as object);
        if (flaw) return next(new MessageError(flaw === 'deep' ? BODY_TOO_DEEP : BODY_NUL));
      }
      next();
    });
  };
}

/** Form bodies (the download endpoints and SAML's assertion consumer take them), with the same clear refusals. */
export function formBody(): RequestHandler {
  const parse = urlencoded({ limit: BODY_LIMIT_BYTES, extended: true });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: unknown) => next(err ? clientError(err) : undefined));
  };
}

/**
 * A parser's failure as the API answers it. The body parser's errors carry a `type`; those of the request (too
 * large, not JSON, a charset or encoding not taken, cut off) are the caller's 4xx with a message naming the limit;
 * anything else (a failure of the server's stream) stays an error for the filter to log as a 500.
 */
function clientError(err: unknown): unknown {
  const { type, status } = (err ?? {}) as { type?: unknown; status?: unknown };
  if (typeof status !== 'number' || status >= 500) return err;
  switch (type) {
    case 'entity.too.large':
      return new MessageError(BODY_TOO_LARGE, 413);
    case 'parameters.too.many':
      return new MessageError(FORM_TOO_MANY_FIELDS, 413);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new MessageError('Unsupported media type: the body must be UTF-8 (JSON) or a form, without content encoding.', 415);
    default:
      return new MessageError(BODY_UNPARSABLE, 400);
  }
}

/**
 * What no endpoint can take in a parsed body: arrays or objects nested deeper than `max` levels, or a NUL character
 * in a string or key (Postgres cannot store one in text: the app database would fail on it). Iterative, so any depth
 * is safe to ask about.
 */
export function flawOf(value: object, max = MAX_JSON_DEPTH): 'deep' | 'nul' | undefined {
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop() as object;
    const depth = depths.pop() as number;
    if (depth > max) return 'deep';
    const array = Array.isArray(node);
    for (const key of array ? [] : Object.keys(node)) if (key.includes('\u0000')) return 'nul';
    for (const child of array ? node : Object.values(node)) {
      if (typeof child === 'string') {
        if (child.includes('\u0000')) return 'nul';
      } else if (child !== null && typeof child === 'object') {
        pending.push(child as object);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

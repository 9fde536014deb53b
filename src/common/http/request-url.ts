import type { NextFunction, Request, Response } from 'express';
import { MessageError } from '../errors/api-errors';

export const URL_NUL = 'The request URL holds a NUL character (%00), which no value may contain.';

/**
 * Refuses a URL with an encoded NUL character (`%00`) in its path or query: no value legitimately holds one, and
 * Postgres cannot take one in a text parameter, so a search for `a%00b` would fail in the app database. (Node's HTTP
 * parser already refuses a raw NUL byte.)
 */
export function urlWithoutNul() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const url = req.url;
    next(url.includes('%') && /%00/i.test(url) ? new MessageError(URL_NUL) : undefined);
  };
}

import type { Response } from 'express';
import type { WebFile } from './web-pages.service';

/**
 * Sends a page or asset of the built web app. A page URL can carry a public link's uuid, an embed token or a
 * `redirect=` target: no-referrer keeps it out of the Referer of any request the page makes elsewhere. nosniff: the
 * type we say is the type the browser uses. `frame-ancestors` is set for every path by the embedding middleware.
 */
export function sendWebFile(res: Response, file: WebFile): void {
  res.status(file.status).type(file.type).setHeader('Cache-Control', file.cache);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(file.body);
}

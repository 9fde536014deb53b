import { Injectable } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A page or asset answer: the status, content type and body; `cache` says how long a browser may keep it. */
export interface WebFile {
  status: number;
  type: string;
  body: Buffer | string;
  cache: string;
}

/** Hashed asset names as Vite writes them (flat in assets/): no slashes, no dot-dot. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
};

/** Where the built web app is: WEB_DIST_DIR, else web/dist of the checkout (found upward from here: src/ or dist/src/). */
export function webDistDir(): string {
  if (process.env.WEB_DIST_DIR) return path.resolve(process.env.WEB_DIST_DIR);
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'web', 'dist');
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pages not built</title></head>
<body style="font-family:sans-serif;padding:2em"><h1>The web pages are not built</h1>
<p>The application and the public and embedded pages come from the <code>web/</code> package.
Build it with <code>npm run build:web</code> (or <code>npm start</code>, which builds what is missing) and reload.</p></body></html>`;

/** The two HTML entries of the Vite build: the public and embed pages (`index.html`) and the application (`app.html`). */
export type WebEntry = 'viewer' | 'app';
const ENTRY_FILES: Record<WebEntry, string> = { viewer: 'index.html', app: 'app.html' };

/**
 * The built web app (web/dist): an entry's HTML for each of its page routes, the hashed assets under /app/assets/.
 * The HTML is re-read when its file changes (a rebuild while the server runs), assets are read per request (the OS
 * caches them; browsers keep them a year, their names change with their content).
 */
@Injectable()
export class WebPagesService {
  private readonly html = new Map<WebEntry, { mtimeMs: number; html: string }>();

  page(entry: WebEntry = 'viewer'): WebFile {
    const file = path.join(webDistDir(), ENTRY_FILES[entry]);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return { status: 503, type: 'text/html; charset=utf-8', body: NOT_BUILT, cache: 'no-store' };
    }
    let cached = this.html.get(entry);
    if (!cached || cached.mtimeMs !== stat.mtimeMs) {
      cached = { mtimeMs: stat.mtimeMs, html: fs.readFileSync(file, 'utf8') };
      this.html.set(entry, cached);
    }
    return { status: 200, type: 'text/html; charset=utf-8', body: cached.html, cache: 'no-store' };
  }

  asset(name: string): WebFile | null {
    if (!ASSET_NAME.test(name)) return null;
    const file = path.join(webDistDir(), 'assets', name);
    try {
      const body = fs.readFileSync(file);
      return {
        status: 200,
        type: TYPES[path.extname(name)] ?? 'application/octet-stream',
        body,
        cache: 'public, max-age=31536000, immutable',
      };
    } catch {
      return null;
    }
  }
}

/** `/public/question/<uuid>.csv` style links (Metabase's): the uuid and the format, or null for a plain page. */
export function downloadLink(param: string): { uuid: string; format: 'csv' | 'json' | 'xlsx' } | null {
  const m = /^(.+)\.(csv|json|xlsx)$/.exec(param);
  return m ? { uuid: m[1], format: m[2] as 'csv' | 'json' | 'xlsx' } : null;
}

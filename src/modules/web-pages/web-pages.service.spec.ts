import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { downloadLink, WebPagesService } from './web-pages.service';

/** WebPagesService over a temporary build folder (WEB_DIST_DIR). */
describe('WebPagesService', () => {
  let dist: string;
  const saved = process.env.WEB_DIST_DIR;
  beforeEach(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    process.env.WEB_DIST_DIR = dist;
  });
  afterEach(() => {
    fs.rmSync(dist, { recursive: true, force: true });
    if (saved === undefined) delete process.env.WEB_DIST_DIR;
    else process.env.WEB_DIST_DIR = saved;
  });

  it('answers 503 with instructions while an entry is not built, then the entry, again after a rebuild', () => {
    const pages = new WebPagesService();
    const missing = pages.page('app');
    expect(missing).toMatchObject({ status: 503, cache: 'no-store' });
    expect(String(missing.body)).toContain('npm run build:web');

    const file = path.join(dist, 'app.html');
    fs.writeFileSync(file, '<html>one</html>');
    fs.utimesSync(file, new Date(1000), new Date(1000));
    expect(pages.page('app')).toMatchObject({ status: 200, body: '<html>one</html>' });
    fs.writeFileSync(file, '<html>two</html>');
    fs.utimesSync(file, new Date(2000), new Date(2000));
    expect(pages.page('app').body).toBe('<html>two</html>');
    expect(pages.page('viewer').status).toBe(503);
  });

  it('serves flat asset names only, with their type and a year of caching, and nothing outside assets/', () => {
    fs.writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'x()');
    fs.writeFileSync(path.join(dist, 'secret.txt'), 'no');
    const pages = new WebPagesService();
    expect(pages.asset('main-abc123.js')).toMatchObject({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      cache: 'public, max-age=31536000, immutable',
    });
    for (const name of ['../secret.txt', '..', 'sub/x.js', '.hidden', '%2e%2e%2fsecret.txt', 'missing.js'])
      expect(pages.asset(name)).toBeNull();
  });

  it('reads download links of public pages', () => {
    expect(downloadLink('0f3c.csv')).toEqual({ uuid: '0f3c', format: 'csv' });
    expect(downloadLink('0f3c')).toBeNull();
    expect(downloadLink('0f3c.pdf')).toBeNull();
  });
});

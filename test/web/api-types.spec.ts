import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** The application's API types, generated from the server's OpenAPI document (web/README.md). */
const OUT = path.join(ROOT, 'web/src/app/api/generated/openapi.ts');

// A stale build of the server is rebuilt first (a minute or two on a busy machine).
jest.setTimeout(600_000);

describe("the web application's API types", () => {
  it('web/src/app/api/generated/openapi.ts is what the OpenAPI document gives now (else: npm run gen:api-types)', () => {
    // The document of the built server, as `npm run gen:api-types` takes it (built first when stale).
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-needed.js')], { cwd: ROOT, stdio: 'inherit' });
    const fresh = execFileSync(process.execPath, [path.join(ROOT, 'scripts/gen-api-types.js'), '--stdout'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const committed = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
    // The first line that differs, not a diff of ten thousand lines.
    const [a, b] = [committed.split('\n'), fresh.split('\n')];
    const at = b.findIndex((line, i) => a[i] !== line);
    const first = at < 0 && a.length === b.length ? null : { line: at + 1, committed: a[at], fresh: b[at] };
    expect(first).toBeNull();
    // The types the application leans on are there (a document that lost its DTO schemas would be "fresh" too).
    expect(fresh).toMatch(/LoginDto: \{\n\s+username: string;\n\s+password: string;/);
    expect(fresh).toContain('"/api/setup": {');
  });
});

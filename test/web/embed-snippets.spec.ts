import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { hashOptions, iframeCode, signingCode, type EmbedCode } from '../../web/src/app/dashboards/sharing/snippets';

const KEY = 'a'.repeat(64);
const code: EmbedCode = {
  siteUrl: 'https://bi.example.com',
  resource: 'dashboard',
  id: 7,
  params: { category: ['Gizmo', 'Doo#{dad}'], state: 'CA' },
  hash: hashOptions({ bordered: true, titled: false, theme: 'night' }),
};

/** What a host backend's token must carry to open the embed with the locked values. */
function expectToken(url: string, expected: EmbedCode) {
  const prefix = `${expected.siteUrl}/embed/${expected.resource}/`;
  expect(url.startsWith(prefix)).toBe(true);
  expect(url.endsWith(expected.hash)).toBe(true);
  const token = url.slice(prefix.length, url.length - expected.hash.length);
  const claims = jwt.verify(token, KEY, { algorithms: ['HS256'] }) as Record<string, unknown>;
  expect(claims.resource).toEqual({ [expected.resource]: expected.id });
  expect(claims.params).toEqual(expected.params);
  const ttl = (claims.exp as number) - Date.now() / 1000;
  expect(ttl).toBeGreaterThan(590);
  expect(ttl).toBeLessThanOrEqual(601);
}

describe("the static embed's signing code", () => {
  it('signs, in Node.js as shown, an HS256 token with the key, the resource and the locked values, for ten minutes', () => {
    const source = signingCode('node', code);
    const run = new Function('require', 'process', `${source}\nreturn iframeUrl;`) as (r: unknown, p: unknown) => string;
    const url = run((m: string) => (m === 'jsonwebtoken' ? jwt : undefined), { env: { EMBEDDING_SECRET_KEY: KEY } });
    expectToken(url, code);
    expect(url).toContain('#bordered=true&titled=false&theme=night');
  });

  it('signs the same token in Python as shown (PyJWT stood in for by its HS256 encoding from the standard library)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embed-py-'));
    try {
      // PyJWT's `jwt.encode(payload, key, algorithm="HS256")`, for the snippet to run without it installed.
      fs.writeFileSync(
        path.join(dir, 'jwt.py'),
        [
          'import base64, hashlib, hmac, json',
          'def _b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()',
          'def encode(payload, key, algorithm):',
          '    assert algorithm == "HS256"',
          '    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())',
          '    body = _b64(json.dumps(payload).encode())',
          '    sig = hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()',
          '    return f"{head}.{body}.{_b64(sig)}"',
          '',
        ].join('\n'),
      );
      const script = `${signingCode('python', { ...code, resource: 'question' })}\nprint(iframe_url)\n`;
      const url = execFileSync('python3', ['-c', script], {
        env: { ...process.env, PYTHONPATH: dir, EMBEDDING_SECRET_KEY: KEY },
        encoding: 'utf8',
      }).trim();
      expectToken(url, { ...code, resource: 'question' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes values as each language's literals: Ruby strings that do not interpolate, Java maps of any size", () => {
    const rb = signingCode('ruby', code);
    expect(rb).toContain(':params => { "category" => ["Gizmo", "Doo\\#{dad}"], "state" => "CA" }');
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`p${i}`, i === 0 ? 3_000_000_000 : i]));
    const java = signingCode('java', { ...code, params: many });
    expect(java).toContain('.claim("params", Map.ofEntries(Map.entry("p0", 3000000000L), Map.entry("p1", 1),');
    expect(signingCode('java', { ...code, params: {} })).toContain('.claim("params", Map.of())');
    expect(signingCode('go', code)).toContain('"params":   map[string]any{"category": []any{"Gizmo", "Doo#{dad}"}, "state": "CA"},');
  });

  it("titles the iframe with what it embeds (a screen reader's name for the frame)", () => {
    expect(iframeCode('question')).toContain('title="Embedded question"');
    expect(iframeCode('dashboard')).toContain('title="Embedded dashboard"');
  });
});

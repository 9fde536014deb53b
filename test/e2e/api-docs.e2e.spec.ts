import { RequestMethod } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS_KEY, AccessLevel } from '../../src/common/auth/access.decorator';
import { versionInfo } from '../../src/common/version';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

interface Op {
  operationId: string;
  'x-access'?: string;
  tags?: string[];
  description?: string;
  security?: unknown[];
  responses: Record<string, { description: string }>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
}

/** GET /api/docs: the OpenAPI document of every route with its access level, and the page rendering it. */
describe('API docs', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    info: { title: string; version: string };
    paths: Record<string, Record<string, Op>>;
    components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
  };
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http().get('/api/docs/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  /** Every route handler of the app, found the way the route-access test finds them (not through the docs module). */
  function routes() {
    const reflector = new Reflector();
    const scanner = new MetadataScanner();
    const controllers = [...t.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
    return controllers.flatMap((wrapper) => {
      const proto = Object.getPrototypeOf(wrapper.instance as object);
      const ctor = (wrapper.instance as object).constructor;
      return scanner.getAllMethodNames(proto).flatMap((name) => {
        const handler = proto[name];
        const sub: string | string[] | undefined = Reflect.getMetadata('path', handler);
        if (sub === undefined) return [];
        const method = RequestMethod[Reflect.getMetadata('method', handler)].toLowerCase();
        const access = reflector.getAllAndOverride<AccessLevel>(ACCESS_KEY, [handler, ctor]);
        return [sub].flat().map((p) => {
          // Express syntax to OpenAPI's: `:id` -> `{id}`, an optional group `{/:x}` -> `/{x}`, a wildcard `*rest` -> `{rest}`.
          const raw = `/${Reflect.getMetadata('path', ctor)}/${p}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
          const path = raw.replace(/\{(\/[^}]*)\}/g, '$1').replace(/[:*](\w+)/g, '{$1}');
          return { id: `${ctor.name}_${name}`, label: `${method.toUpperCase()} ${raw}`, method, path, access };
        });
      });
    });
  }

  it('is an OpenAPI 3 document of this server and version', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'analytics-server', version: versionInfo().tag });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['api-key', 'session', 'session-cookie']);
  });

  it('has every route of the app, under its path and method, with its @Access level', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(200);
    const missing = all.filter((r) => {
      const op = doc.paths[r.path]?.[r.method] ?? doc.paths[encodeURI(r.path).replace(/%7B/g, '{').replace(/%7D/g, '}')]?.[r.method];
      return !op || op.operationId.replace(/\[\d+\]$/, '') !== r.id || op['x-access'] !== r.access;
    });
    expect(missing.map((r) => `${r.label} (${r.access})`)).toEqual([]);
    // And nothing else: as many operations as route paths.
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(all.length);
  });

  it('says in each operation who may call it, and which credentials it takes', () => {
    const card = doc.paths['/api/card/{id}'].get;
    expect(card).toMatchObject({ 'x-access': 'user', tags: ['card'] });
    expect(card.description).toMatch(/^\*\*Access: user\*\* \(any signed-in user or API key\)\./);
    expect(card.security).toEqual([{ session: [] }, { 'session-cookie': [] }, { 'api-key': [] }]);
    expect(card.responses['401']).toEqual({ description: expect.stringMatching(/^Unauthenticated/) });
    expect(card.responses['403']).toBeUndefined();
    expect(doc.paths['/api/setting'].get).toMatchObject({ 'x-access': 'admin', tags: ['setting'] });
    expect(Object.keys(doc.paths['/api/setting'].get.responses).sort()).toEqual(['200', '401', '403']);
    expect(doc.paths['/api/health'].get).toMatchObject({ 'x-access': 'public', security: [] });
    expect(doc.paths['/api/public/card/{uuid}'].get['x-access']).toBe('public-sharing');
    expect(doc.paths['/api/embed/card/{token}'].get['x-access']).toBe('embed');
    expect(doc.paths['/api/docs'].get['x-access']).toBe('public');
  });

  it('describes request bodies and query parameters from the DTOs validation rules', () => {
    expect(doc.paths['/api/setup'].post.requestBody?.content['application/json'].schema.$ref).toBe('#/components/schemas/SetupDto');
    expect(doc.components.schemas.SetupDto).toEqual({
      type: 'object',
      properties: {
        token: { type: 'string', pattern: '\\S' },
        user: { $ref: '#/components/schemas/SetupUserDto' },
        prefs: { $ref: '#/components/schemas/SetupPrefsDto' },
      },
      required: ['token', 'user'],
    });
    expect(doc.components.schemas.SetupUserDto).toMatchObject({
      properties: { email: { type: 'string', format: 'email' }, first_name: { type: 'string', nullable: true } },
      required: ['email', 'password'],
    });
    const search = doc.paths['/api/search'].get.parameters ?? [];
    expect(search.find((p) => p.name === 'models')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'array', items: { type: 'string', enum: expect.arrayContaining(['card', 'dashboard']) } },
    });
    expect(search.find((p) => p.name === 'limit')).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1 } });
  });

  it("is public like Metabase's, with or without a session, and the same document each time", async () => {
    const admin = await setupAdmin(t);
    const again = await t.http().get('/api/docs/openapi.json').set(auth(admin)).expect(200);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.body).toEqual(doc);
  });

  it('renders the document in a page served with its assets from this server (no CDN)', async () => {
    const page = await t.http().get('/api/docs').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    expect(assets.every((a) => a.startsWith('/api/docs/assets/'))).toBe(true);
    for (const asset of assets) {
      const res = await t.http().get(asset).expect(200);
      expect(res.headers['content-type']).toMatch(/^(text\/css|text\/javascript|image\/png)/);
    }
    const init = await t.http().get('/api/docs/assets/docs-init.js').expect(200);
    expect(init.text).toContain("url: '/api/docs/openapi.json'");
    expect((await t.http().get('/api/docs/assets/swagger-ui-bundle.js').expect(200)).text).toContain('SwaggerUIBundle');
    // Only the page's own files: nothing else of the package, and no path out of it.
    await t.http().get('/api/docs/assets/package.json').expect(404);
    await t.http().get('/api/docs/assets/..%2F..%2Fpackage.json').expect(404);
  });
});

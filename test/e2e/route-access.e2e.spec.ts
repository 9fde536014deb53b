import { RequestMethod } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { ACCESS_KEY, AccessLevel, LEVEL_GUARDS } from '../../src/common/auth/access.decorator';
import { ACCEPTS_FORM } from '../../src/common/http/accepts-form';
import { PUBLIC_MODEL } from '../../src/modules/public-sharing/public-link.resolver';
import { startTestApp, TestApp } from '../support/test-app';

/** Every route of every controller must declare who may call it; the guard refuses routes that do not. */
describe('route access declarations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Every route handler of every controller, with what names it in messages. */
  function routes() {
    const controllers = [...t.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
    const scanner = new MetadataScanner();
    return controllers.flatMap((wrapper) => {
      const instance = wrapper.instance as object;
      const proto = Object.getPrototypeOf(instance);
      return scanner.getAllMethodNames(proto).flatMap((name) => {
        const handler = proto[name];
        const path: string | undefined = Reflect.getMetadata('path', handler);
        if (path === undefined) return [];
        const method = RequestMethod[Reflect.getMetadata('method', handler)];
        const targets = [handler, instance.constructor];
        return [
          {
            targets,
            label: `${method} ${wrapper.name}.${name}`,
            route: `${method} ${`${Reflect.getMetadata('path', instance.constructor)}/${path}`.replace(/\/+/g, '/').replace(/^\/|\/$/g, '')}`,
          },
        ];
      });
    });
  }

  it('finds an @Access level on every route', () => {
    const reflector = new Reflector();
    const all = routes();
    expect(all.length).toBeGreaterThan(5);
    expect(all.filter((r) => !reflector.getAllAndOverride(ACCESS_KEY, r.targets)).map((r) => r.label)).toEqual([]);
  });

  it('applies the guard of its level to every route (the level is declared through @Access, never by hand)', () => {
    const reflector = new Reflector();
    const wrong = routes().filter((r) => {
      const level = reflector.getAllAndOverride<AccessLevel>(ACCESS_KEY, r.targets);
      const guards = r.targets.flatMap((t) => (Reflect.getMetadata(GUARDS_METADATA, t) as unknown[] | undefined) ?? []);
      return !guards.includes(LEVEL_GUARDS[level]);
    });
    expect(wrong.map((r) => r.label)).toEqual([]);
  });

  it('says which model the :uuid of every public-link route names (the link resolver needs it)', () => {
    const reflector = new Reflector();
    const shared = routes().filter(
      (r) => reflector.getAllAndOverride(ACCESS_KEY, r.targets) === 'public-sharing' && r.route.includes(':uuid'),
    );
    expect(shared.length).toBeGreaterThan(10);
    expect(
      shared
        .filter((r) => !['card', 'dashboard', 'action'].includes(reflector.getAllAndOverride(PUBLIC_MODEL, r.targets)))
        .map((r) => r.label),
    ).toEqual([]);
  });

  it('takes form posts only on the routes whose interface is a form', () => {
    const reflector = new Reflector();
    const forms = routes()
      .filter((r) => reflector.getAllAndOverride(ACCEPTS_FORM, r.targets))
      .map((r) => r.route);
    // Downloads (a browser posts a form to get a file), the SAML assertion consumer, and CSV uploads (multipart files).
    expect(forms.sort()).toEqual([
      'POST api/card/:cardId/query/:exportFormat',
      'POST api/card/from-csv',
      'POST api/dashboard/:dashboardId/dashcard/:dashcardId/card/:cardId/query/:exportFormat',
      'POST api/dataset/:exportFormat',
      'POST api/table/:id/append-csv',
      'POST api/table/:id/replace-csv',
      'POST auth/sso',
    ]);
  });
});

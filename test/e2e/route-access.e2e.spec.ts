import { RequestMethod } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS_KEY } from '../../src/common/auth/access.decorator';
import { ACCEPTS_FORM } from '../../src/common/http/accepts-form';
import { startTestApp, TestApp } from '../support/test-app';

/** Every route of every controller must declare who may call it; the guard refuses routes that do not. */
describe('route access declarations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('finds an @Access level on every route', async () => {
    const controllers = [...t.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
    const scanner = new MetadataScanner();
    const reflector = new Reflector();
    const missing: string[] = [];
    let routes = 0;
    for (const wrapper of controllers) {
      const instance = wrapper.instance as object;
      const proto = Object.getPrototypeOf(instance);
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        const path = Reflect.getMetadata('path', handler);
        if (path === undefined) continue;
        routes++;
        const level = reflector.getAllAndOverride(ACCESS_KEY, [handler, instance.constructor]);
        if (!level) missing.push(`${RequestMethod[Reflect.getMetadata('method', handler)]} ${wrapper.name}.${name}`);
      }
    }
    expect(routes).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('takes form posts only on the routes whose interface is a form', () => {
    const controllers = [...t.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
    const scanner = new MetadataScanner();
    const reflector = new Reflector();
    const forms: string[] = [];
    for (const wrapper of controllers) {
      const instance = wrapper.instance as object;
      const proto = Object.getPrototypeOf(instance);
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        const path = Reflect.getMetadata('path', handler);
        if (path === undefined || !reflector.getAllAndOverride(ACCEPTS_FORM, [handler, instance.constructor])) continue;
        forms.push(`${RequestMethod[Reflect.getMetadata('method', handler)]} ${Reflect.getMetadata('path', instance.constructor)}/${path}`);
      }
    }
    // Downloads (a browser posts a form to get a file) and, once built, the SAML assertion consumer.
    expect(forms.sort()).toEqual(['POST api/dataset/:exportFormat']);
  });
});

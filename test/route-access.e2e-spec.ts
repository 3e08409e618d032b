import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ACCESS_METADATA, type AccessRule } from '../src/routes/access.decorators.js';
import { startApp, type TestApp } from './support/app.js';

describe('route access declarations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('every registered route declares who may call it', () => {
    const reflector = t.app.get(Reflector);
    const routes: string[] = [];
    const undeclared: string[] = [];
    for (const wrapper of t.app.get(DiscoveryService).getControllers()) {
      const controller = wrapper.metatype as (new () => object) | undefined;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const route = `${method} ${controller.name}.${name}`;
        routes.push(route);
        const rule = reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [
          handler,
          controller,
        ]);
        if (!rule) undeclared.push(route);
      }
    }
    expect(routes.length).toBeGreaterThan(5);
    expect(undeclared).toEqual([]);
  });
});

import { applyDecorators, type INestApplication, SetMetadata } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { ApiConsumes } from '@nestjs/swagger';

const ACCEPTS_XML = 'accepts_xml';

/**
 * Marks a route that takes an XML body as well as JSON (the JUnit form of
 * `POST /results/ingest`), and documents both media types. Body parsing refuses XML (415)
 * on every other route.
 */
export const AcceptsXml = () =>
  applyDecorators(
    SetMetadata(ACCEPTS_XML, true),
    ApiConsumes('application/json', 'application/xml', 'text/xml'),
  );

/**
 * The paths (as `req.path` shows them, under `prefix`) of the routes marked `@AcceptsXml()`.
 * Body parsing runs before Nest routes a request, so it matches these paths itself; a marked
 * path must therefore be exact (no parameters).
 */
export function routesAcceptingXml(app: INestApplication, prefix: string): string[] {
  const paths: string[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        if (name === 'constructor') continue;
        const handler = prototype[name];
        if (typeof handler !== 'function' || !Reflect.getMetadata(ACCEPTS_XML, handler)) continue;
        for (const base of pathsOf(metatype)) {
          for (const path of pathsOf(handler)) {
            const full =
              '/' +
              [prefix, base, path]
                .flatMap((part) => part.split('/'))
                .filter(Boolean)
                .join('/');
            if (/[:*{]/.test(full)) throw new Error(`@AcceptsXml() needs an exact path: ${full}`);
            paths.push(full);
          }
        }
      }
    }
  }
  return paths;
}

function pathsOf(target: object): string[] {
  const path = Reflect.getMetadata(PATH_METADATA, target) as string | string[] | undefined;
  return Array.isArray(path) ? path : [path ?? ''];
}

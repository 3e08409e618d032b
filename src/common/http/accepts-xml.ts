import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiConsumes } from '@nestjs/swagger';

export const ACCEPTS_XML = 'accepts_xml';

/**
 * Marks a route that takes an XML body as well as JSON (the XML report form of
 * `POST /results/ingest`), and documents both media types. The body's reader
 * (`ReadBodyInterceptor`) refuses XML (415) on every other route.
 */
export const AcceptsXml = () =>
  applyDecorators(
    SetMetadata(ACCEPTS_XML, true),
    ApiConsumes('application/json', 'application/xml', 'text/xml'),
  );
